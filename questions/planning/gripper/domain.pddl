; A robot with two grippers carries balls between rooms. It may hold one ball in each
; gripper, move freely from any room to any other, and pick or drop balls in the room it is in.
(define (domain gripper)
  (:requirements :strips :typing)
  (:types room ball gripper)
  (:predicates
    (robot-at ?r - room)               ; the robot is in room ?r
    (ball-at ?b - ball ?r - room)      ; ball ?b lies in room ?r
    (free ?g - gripper)                ; gripper ?g holds nothing
    (carrying ?g - gripper ?b - ball)) ; gripper ?g holds ball ?b

  (:action move
    :parameters (?from - room ?to - room)
    :precondition (robot-at ?from)
    :effect (and (robot-at ?to) (not (robot-at ?from))))

  (:action pick
    :parameters (?b - ball ?r - room ?g - gripper)
    :precondition (and (robot-at ?r) (ball-at ?b ?r) (free ?g))
    :effect (and (carrying ?g ?b)
                 (not (ball-at ?b ?r)) (not (free ?g))))

  (:action drop
    :parameters (?b - ball ?r - room ?g - gripper)
    :precondition (and (robot-at ?r) (carrying ?g ?b))
    :effect (and (ball-at ?b ?r) (free ?g)
                 (not (carrying ?g ?b)))))
