; A flat around a corridor: kitchen, bedroom and bathroom open onto the corridor, the living room
; opens onto the kitchen only. Bring the book to the bedroom and the cup to the kitchen.
(define (problem delivery-robot-2)
  (:domain delivery-robot)
  (:objects robot - robot
            corridor kitchen bedroom bathroom living_room - room
            kitchen_door bedroom_door bathroom_door living_room_door - door
            book cup towel - item)
  (:init
    (robot-in robot corridor)
    (hand-empty robot)
    (connects kitchen_door corridor kitchen)
    (connects kitchen_door kitchen corridor)
    (connects bedroom_door corridor bedroom)
    (connects bedroom_door bedroom corridor)
    (connects bathroom_door corridor bathroom)
    (connects bathroom_door bathroom corridor)
    (connects living_room_door kitchen living_room)
    (connects living_room_door living_room kitchen)
    (item-in book living_room)
    (item-in cup bedroom)
    (item-in towel bathroom))
  (:goal (and
    (item-in book bedroom)
    (item-in cup kitchen)
    (item-in towel bathroom))))
