"""The history protocol: capture, anchors, canon, timeline, cascade, chronicle."""
