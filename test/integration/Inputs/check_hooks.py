"""Prints what a user of the published hooks gets, for FileCheck:
check_hooks.py HOOKS_YAML DOCKERFILE VERSION_LINE

For each hook: its id, language, file types and what it runs; for the
container hook, whether its image's tag is the version warplint says it is
(the release workflow refuses a tag the hook does not name) and whether the
Dockerfile installs the package that cpack names and runs warplint."""
import re
import sys

import yaml


def main():
    hooks = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
    dockerfile = open(sys.argv[2], encoding="utf-8").read()
    version = re.match(r"warplint (\S+) \(LLVM", sys.argv[3]).group(1)
    for h in hooks:
        print("hook %s language=%s types_or=%s" % (
            h["id"], h["language"], ",".join(h.get("types_or", []))))
        entry = h["entry"].split()
        if h["language"] == "docker_image":
            image = entry[-1]
            tag = image.rsplit(":", 1)[1]
            print("  image=%s tag-is-version=%s" % (image.rsplit(":", 1)[0],
                                                     tag == version))
            print("  entrypoint=%s" % (entry[entry.index("--entrypoint") + 1]
                                       if "--entrypoint" in entry else "-"))
        else:
            print("  entry=%s" % h["entry"])
    base = re.search(r"^FROM (\S+)", dockerfile, re.M).group(1)
    copy = re.search(r"^COPY (\S+)", dockerfile, re.M).group(1)
    installs = re.search(r"apt-get install[^\n]*?(/tmp/\S+\.deb)", dockerfile)
    entrypoint = re.search(r"^ENTRYPOINT (.*)$", dockerfile, re.M).group(1)
    print("dockerfile from=%s copy=%s installs=%s entrypoint=%s" % (
        base, copy, installs.group(1) if installs else "-", entrypoint))


if __name__ == "__main__":
    main()
