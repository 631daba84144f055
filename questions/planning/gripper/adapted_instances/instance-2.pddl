; Carry three balls from room A to room B.
(define (problem gripper-2)
  (:domain gripper)
  (:objects rooma roomb - room
            ball1 ball2 ball3 - ball
            left right - gripper)
  (:init
    (robot-at rooma)
    (free left)
    (free right)
    (ball-at ball1 rooma)
    (ball-at ball2 rooma)
    (ball-at ball3 rooma))
  (:goal (and
    (ball-at ball1 roomb)
    (ball-at ball2 roomb)
    (ball-at ball3 roomb))))
