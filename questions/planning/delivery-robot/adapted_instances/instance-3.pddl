; An office floor: the lobby opens onto the corridor; the office and the storage room open onto
; the corridor, and the storage door is locked. Its key is in the office. Bring the toolbox from
; the storage room to the lobby and return the key to the office.
(define (problem delivery-robot-3)
  (:domain delivery-robot)
  (:objects robot - robot
            lobby corridor office storage - room
            lobby_door office_door storage_door - door
            storage_key toolbox plant - item)
  (:init
    (robot-in robot lobby)
    (hand-empty robot)
    (connects lobby_door lobby corridor)
    (connects lobby_door corridor lobby)
    (connects office_door corridor office)
    (connects office_door office corridor)
    (connects storage_door corridor storage)
    (connects storage_door storage corridor)
    (locked storage_door)
    (opens storage_key storage_door)
    (item-in storage_key office)
    (item-in plant lobby)
    (item-in toolbox storage))
  (:goal (and
    (item-in toolbox lobby)
    (item-in storage_key office)
    (item-in plant lobby))))
