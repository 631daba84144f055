; Three rooms in a row: kitchen - corridor - office. Fetch the mug from the kitchen to the office.
(define (problem delivery-robot-1)
  (:domain delivery-robot)
  (:objects robot - robot
            kitchen corridor office - room
            kitchen_door office_door - door
            mug - item)
  (:init
    (robot-in robot office)
    (hand-empty robot)
    (connects kitchen_door kitchen corridor)
    (connects kitchen_door corridor kitchen)
    (connects office_door office corridor)
    (connects office_door corridor office)
    (item-in mug kitchen))
  (:goal (item-in mug office)))
