"""One router per topic: runs, gradients, examples, health."""
