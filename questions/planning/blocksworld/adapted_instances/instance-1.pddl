; Reverse a tower of three blocks.
(define (problem blocksworld-1)
  (:domain blocksworld)
  (:objects a b c - block)
  (:init
    (handempty)
    (ontable c)
    (on b c)
    (on a b)
    (clear a))
  (:goal (and
    (on c b)
    (on b a))))
