; Five blocks: rebuild two stacks into a different pair of stacks.
(define (problem blocksworld-3)
  (:domain blocksworld)
  (:objects a b c d e - block)
  (:init
    (handempty)
    (ontable a)
    (on b a)
    (on c b)
    (clear c)
    (ontable d)
    (on e d)
    (clear e))
  (:goal (and
    (on a e)
    (on e c)
    (on d b))))
