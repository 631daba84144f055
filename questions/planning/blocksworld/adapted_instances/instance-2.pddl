; Two towers of two blocks become one tower of four.
(define (problem blocksworld-2)
  (:domain blocksworld)
  (:objects red blue green yellow - block)
  (:init
    (handempty)
    (ontable red)
    (on blue red)
    (clear blue)
    (ontable green)
    (on yellow green)
    (clear yellow))
  (:goal (and
    (on red green)
    (on green blue)
    (on blue yellow))))
