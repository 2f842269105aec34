"""The justification spine, visibility, importance and lifetime."""
