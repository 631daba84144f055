; Blocks world with four operators and a single arm: blocks sit on the table or on one
; another; the arm lifts a clear block off the table or off another block, and sets the held
; block down on the table or on top of a clear block.
(define (domain blocksworld)
  (:requirements :strips :typing)
  (:types block)
  (:predicates
    (on ?top - block ?below - block)   ; ?top rests directly on ?below
    (ontable ?b - block)               ; ?b rests on the table
    (clear ?b - block)                 ; nothing is on ?b and the arm does not hold it
    (holding ?b - block)               ; the arm holds ?b
    (handempty))                       ; the arm holds nothing

  (:action pick-up
    :parameters (?b - block)
    :precondition (and (handempty) (clear ?b) (ontable ?b))
    :effect (and (holding ?b)
                 (not (handempty)) (not (clear ?b)) (not (ontable ?b))))

  (:action put-down
    :parameters (?b - block)
    :precondition (holding ?b)
    :effect (and (ontable ?b) (clear ?b) (handempty)
                 (not (holding ?b))))

  (:action stack
    :parameters (?b - block ?target - block)
    :precondition (and (holding ?b) (clear ?target))
    :effect (and (on ?b ?target) (clear ?b) (handempty)
                 (not (holding ?b)) (not (clear ?target))))

  (:action unstack
    :parameters (?b - block ?from - block)
    :precondition (and (handempty) (clear ?b) (on ?b ?from))
    :effect (and (holding ?b) (clear ?from)
                 (not (handempty)) (not (clear ?b)) (not (on ?b ?from)))))
