; Carry two balls from the kitchen to the office.
(define (problem gripper-1)
  (:domain gripper)
  (:objects kitchen office - room
            ball1 ball2 - ball
            left right - gripper)
  (:init
    (robot-at kitchen)
    (free left)
    (free right)
    (ball-at ball1 kitchen)
    (ball-at ball2 kitchen))
  (:goal (and
    (ball-at ball1 office)
    (ball-at ball2 office))))
