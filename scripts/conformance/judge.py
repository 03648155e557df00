#!/usr/bin/env python3
"""Judges one conformance run (the suite's -o directory) against not-applicable.txt.

Every scenario not listed as not applicable must have no failed check other than the checks
listed as not applicable. Prints a line per scenario and the applicable count; exit 1 when an
applicable scenario failed, a scenario listed here did not run, or the run is empty.
Usage: judge.py REVISION RESULTS_DIR NOT_APPLICABLE_FILE
"""
import json
import pathlib
import re
import sys


def not_applicable(path, revision):
    scenarios, checks = {}, {}
    for line in pathlib.Path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        rev, target, reason = line.split(None, 2)
        if rev not in ("*", revision):
            continue
        if "#" in target:
            scenario, check = target.split("#", 1)
            checks.setdefault(scenario, {})[check] = reason.strip()
        else:
            scenarios[target] = reason.strip()
    return scenarios, checks


def main():
    revision, results, listing = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3]
    na_scenarios, na_checks = not_applicable(listing, revision)
    ran, applicable, passed, bad = set(), 0, 0, []
    for checks_file in sorted(results.glob("server-*/checks.json")):
        name = re.sub(r"^server-|-\d{4}-\d\d-\d\dT.*$", "", checks_file.parent.name)
        ran.add(name)
        checks = json.loads(checks_file.read_text(encoding="utf-8"))
        failed = [c for c in checks if c.get("status") == "FAILURE" and c.get("id") not in na_checks.get(name, {})]
        if name in na_scenarios:
            print(f"  n/a   {name}: {na_scenarios[name]}")
            continue
        applicable += 1
        excused = len([c for c in checks if c.get("id") in na_checks.get(name, {})])
        note = f" ({excused} check(s) not applicable)" if excused else ""
        if failed:
            bad.append(name)
            print(f"  FAIL  {name}: " + "; ".join(f"{c.get('id')}: {c.get('errorMessage', '')[:160]}" for c in failed))
        else:
            passed += 1
            ok = len([c for c in checks if c.get("status") == "SUCCESS"])
            print(f"  pass  {name}: {ok} check(s) passed{note}")
    missing = sorted((set(na_scenarios) | set(na_checks)) - ran)
    if missing:
        print(f"  listed as not applicable but not run at {revision}: {', '.join(missing)}")
    print(f"conformance {revision}: {passed}/{applicable} applicable scenarios pass, {len(ran) - applicable} not applicable")
    sys.exit(0 if ran and not bad and not missing else 1)


if __name__ == "__main__":
    main()
