"""The environment the warplint action (action.yml) gives one of its steps,
for a workflow's use of it: so that a test runs the step's script with
exactly the inputs a workflow passes.

  action_env.py env ACTION_YML WORKFLOW_YML --step ID [--context NAME=VALUE]...
      Checks the action against the workflow and prints the env: of the
      action's step ID as `export NAME=VALUE` lines (shell-quoted), after
      `#` comment lines that say what was checked. Checked:
        - action.yml is a composite action; every input it declares is used
          by a step (`inputs.NAME`);
        - the workflow has one step `uses: OWNER/warplint@REF`; every key of
          its `with:` is an input of action.yml; every required input is
          given;
        - the step's env: uses only declared inputs; the script its run:
          starts (under github.action_path) reads every variable of that
          env:, and every INPUT_* variable the script reads is in it.
      Values: the workflow's `with:`, else the input's default. `${{ X }}`
      in a `with:` value or in the env: is looked up: inputs.NAME from
      those values, anything else from --context (absent: empty, as GitHub
      gives a context it does not have).

  action_env.py outputs ACTION_YML GITHUB_OUTPUT_FILE
      Prints each output of the action as `NAME=VALUE`, VALUE from the step
      output it names (`${{ steps.ID.outputs.KEY }}`) in a $GITHUB_OUTPUT
      file (KEY=VALUE lines; the last one counts), empty if not there.

Exit status: 0, or 1 with `error: ...` lines on stderr. Needs PyYAML.
"""
import argparse
import os
import re
import shlex
import sys

import yaml

EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


class Problem(Exception):
    pass


def load(path):
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def as_input_string(value):
    """A `with:` value as the string the action receives."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    return str(value)


def substitute(text, lookup):
    """`${{ NAME }}` in text replaced by lookup(NAME)."""
    return EXPR.sub(lambda m: lookup(m.group(1)), text)


def warplint_step(workflow):
    """The workflow's one step that uses OWNER/warplint@REF."""
    found = []
    for job_name, job in (workflow.get("jobs") or {}).items():
        for step in job.get("steps") or []:
            uses = step.get("uses", "")
            if re.match(r"^[A-Za-z0-9_.-]+/warplint@[^@\s]+$", uses):
                found.append((job_name, step))
    if len(found) != 1:
        raise Problem("the workflow has %d steps that use OWNER/warplint@REF, "
                      "not one" % len(found))
    return found[0]


def check_action(action):
    runs = action.get("runs") or {}
    if runs.get("using") != "composite":
        raise Problem("action.yml: runs.using is %r, not composite"
                      % runs.get("using"))
    inputs = action.get("inputs") or {}
    steps_text = yaml.safe_dump(runs.get("steps") or [])
    for name in inputs:
        if not re.search(r"\binputs\.%s\b(?![-\w])" % re.escape(name), steps_text):
            raise Problem("action.yml: input '%s' is used by no step" % name)
    return inputs, runs.get("steps") or []


def env_command(args):
    action = load(args.action)
    workflow = load(args.workflow)
    inputs, steps = check_action(action)
    context = {}
    for item in args.context:
        name, sep, value = item.partition("=")
        if not sep:
            raise Problem("--context wants NAME=VALUE, not %r" % item)
        context[name] = value

    def from_context(expr):
        if expr not in context and not re.match(r"^[A-Za-z_][\w.-]*$", expr):
            raise Problem("cannot evaluate ${{ %s }}: only context values are "
                          "looked up" % expr)
        return context.get(expr, "")

    job, step = warplint_step(workflow)
    given = step.get("with") or {}
    for key in given:
        if key not in inputs:
            raise Problem("the workflow's step '%s' gives input '%s', which "
                          "action.yml does not declare (its inputs: %s)"
                          % (step["uses"], key, ", ".join(inputs)))
    values = {}
    for name, spec in inputs.items():
        spec = spec or {}
        if name in given:
            values[name] = substitute(as_input_string(given[name]), from_context)
        elif spec.get("required") and "default" not in spec:
            raise Problem("the workflow's step '%s' does not give the required "
                          "input '%s'" % (step["uses"], name))
        else:
            values[name] = as_input_string(spec.get("default", ""))

    matching = [s for s in steps if s.get("id") == args.step]
    if len(matching) != 1:
        raise Problem("action.yml has no step with id '%s'" % args.step)
    target = matching[0]

    def lookup(expr):
        m = re.match(r"^inputs\.([\w-]+)$", expr)
        if m:
            if m.group(1) not in values:
                raise Problem("action.yml: step '%s' uses inputs.%s, which is "
                              "not declared" % (args.step, m.group(1)))
            return values[m.group(1)]
        return from_context(expr)

    env = {}
    for name, value in (target.get("env") or {}).items():
        env[name] = substitute(as_input_string(value), lookup)

    # The script of the step's run:, in the action's directory.
    run = target.get("run", "")
    m = re.search(r"\$\{\{\s*github\.action_path\s*\}\}/([\w./-]+)", run) or \
        re.search(r"\$GITHUB_ACTION_PATH/([\w./-]+)", run)
    if not m:
        raise Problem("action.yml: step '%s' runs no script of the action" % args.step)
    script_path = os.path.join(os.path.dirname(os.path.abspath(args.action)), m.group(1))
    with open(script_path, encoding="utf-8") as f:
        script = f.read()
    for name in env:
        if not re.search(r"\b%s\b" % re.escape(name), script):
            raise Problem("%s does not read %s, which step '%s' passes"
                          % (m.group(1), name, args.step))
    for name in sorted(set(re.findall(r"\$\{?(INPUT_[A-Z0-9_]+)", script))):
        if name not in env:
            raise Problem("%s reads %s, which step '%s' does not pass"
                          % (m.group(1), name, args.step))

    print("# workflow job '%s', step uses %s" % (job, step["uses"]))
    print("# inputs given: %s" % ", ".join("%s=%s" % (k, values[k]) for k in given))
    print("# step '%s' runs %s" % (args.step, m.group(1)))
    for name, value in env.items():
        print("export %s=%s" % (name, shlex.quote(value)))


def outputs_command(args):
    action = load(args.action)
    recorded = {}
    with open(args.github_output, encoding="utf-8") as f:
        for line in f:
            key, sep, value = line.rstrip("\n").partition("=")
            if sep:
                recorded[key] = value
    for name, spec in (action.get("outputs") or {}).items():
        m = re.match(r"^\$\{\{\s*steps\.([\w-]+)\.outputs\.([\w-]+)\s*\}\}$",
                     str((spec or {}).get("value", "")))
        if not m:
            raise Problem("action.yml: output '%s' is not a step's output" % name)
        step_ids = [s.get("id") for s in action["runs"]["steps"]]
        if m.group(1) not in step_ids:
            raise Problem("action.yml: output '%s' names step '%s', which it "
                          "does not have" % (name, m.group(1)))
        print("%s=%s" % (name, recorded.get(m.group(2), "")))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    env = sub.add_parser("env")
    env.add_argument("action")
    env.add_argument("workflow")
    env.add_argument("--step", required=True)
    env.add_argument("--context", action="append", default=[])
    out = sub.add_parser("outputs")
    out.add_argument("action")
    out.add_argument("github_output")
    args = parser.parse_args(argv[1:])
    try:
        if args.command == "env":
            env_command(args)
        else:
            outputs_command(args)
    except (Problem, OSError, yaml.YAMLError) as e:
        sys.stderr.write("error: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
