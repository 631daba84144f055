; A delivery robot in a building described like a 3D scene graph: rooms are places, doors are
; the edges between them, and objects are located in rooms. The robot moves through a door into
; an adjacent room, carries at most one object at a time, and can unlock a locked door with the
; matching key while standing in one of the two rooms the door joins.
(define (domain delivery-robot)
  (:requirements :strips :typing :negative-preconditions)
  (:types robot room door item)
  (:predicates
    (robot-in ?r - robot ?rm - room)              ; robot ?r is in room ?rm
    (item-in ?o - item ?rm - room)                ; object ?o lies in room ?rm
    (connects ?d - door ?from - room ?to - room)  ; door ?d joins ?from to ?to (listed both ways)
    (locked ?d - door)                            ; door ?d is locked
    (opens ?k - item ?d - door)                   ; object ?k is the key of door ?d
    (hand-empty ?r - robot)                       ; robot ?r carries nothing
    (holding ?r - robot ?o - item))               ; robot ?r carries object ?o

  (:action move
    :parameters (?r - robot ?from - room ?to - room ?d - door)
    :precondition (and (robot-in ?r ?from) (connects ?d ?from ?to) (not (locked ?d)))
    :effect (and (robot-in ?r ?to) (not (robot-in ?r ?from))))

  (:action pick
    :parameters (?r - robot ?o - item ?rm - room)
    :precondition (and (robot-in ?r ?rm) (item-in ?o ?rm) (hand-empty ?r))
    :effect (and (holding ?r ?o)
                 (not (item-in ?o ?rm)) (not (hand-empty ?r))))

  (:action place
    :parameters (?r - robot ?o - item ?rm - room)
    :precondition (and (robot-in ?r ?rm) (holding ?r ?o))
    :effect (and (item-in ?o ?rm) (hand-empty ?r)
                 (not (holding ?r ?o))))

  (:action unlock
    :parameters (?r - robot ?d - door ?k - item ?rm - room ?other - room)
    :precondition (and (robot-in ?r ?rm) (connects ?d ?rm ?other) (locked ?d)
                       (holding ?r ?k) (opens ?k ?d))
    :effect (not (locked ?d))))
