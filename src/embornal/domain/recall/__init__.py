"""The maths of recall: ranking, the keyword bound, pieces, relative time, names, feedback,
keyword text."""
