; Three rooms; the robot starts in the hall holding nothing. Swap balls between the lab and
; the store and bring one ball from the hall to the lab.
(define (problem gripper-3)
  (:domain gripper)
  (:objects hall lab store - room
            ball1 ball2 ball3 ball4 - ball
            left right - gripper)
  (:init
    (robot-at hall)
    (free left)
    (free right)
    (ball-at ball1 lab)
    (ball-at ball2 lab)
    (ball-at ball3 store)
    (ball-at ball4 hall))
  (:goal (and
    (ball-at ball1 store)
    (ball-at ball2 store)
    (ball-at ball3 lab)
    (ball-at ball4 lab))))
