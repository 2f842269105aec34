"""The justification spine: evidence, confidence and its decay, strength, the series drawn."""
