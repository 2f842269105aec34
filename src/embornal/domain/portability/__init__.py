"""The portable forms (the log as NDJSON, Markdown) and what other tools' data becomes."""
