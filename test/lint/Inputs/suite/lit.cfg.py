# A suite for the lint's discovery: .test files only, Skipped left out.
config.suffixes = [".test"]
config.excludes = ["Skipped"]
