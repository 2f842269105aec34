"""The fact: its value, its aggregate (decide and evolve), attributes, tags and links in
content."""
