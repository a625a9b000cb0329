#!/usr/bin/env python3
"""Knossos' WGL and linear analyzers beside ariadne, row by row, as a Markdown table.

Reads a corpus (an expected.tsv or a directory, as `ariadne corpus` takes it) and the
harness's listing for it (knossos_harness.clj --out), runs ariadne's default command,
`ariadne check FILE --model M --json` (verdict, minimal core and explanation: what a
user waits for), on every row, and prints one table line per row and a summary of
each checker's verdicts and time. Rows are matched to listing entries by file name
and model, as `ariadne cross-check --import knossos` matches them.

    docs/knossos-harness/side_by_side.py --ariadne build/ariadne \\
        --corpus ../shared/corpus/knossos/expected.tsv \\
        --listing docs/knossos-harness/results/knossos.edn > knossos-table.md
"""
import argparse
import json
import os
import re
import subprocess
import sys
from collections import Counter

# One listing map per line: {:file "..." :analyzer :wgl :valid? false :time-ms 12 ...}
FIELD = re.compile(r':([a-z?-]+)\s+("(?:[^"\\]|\\.)*"|:[A-Za-z0-9?*+!_.-]+|-?\d+(?:\.\d+)?|true|false|nil)')


def parse_value(text):
    if text.startswith('"'):
        return json.loads(text)
    if text.startswith(':'):
        return text
    if text in ('true', 'false'):
        return text == 'true'
    if text == 'nil':
        return None
    return float(text) if '.' in text else int(text)


def read_listing(path):
    entries = []
    with open(path, encoding='utf-8') as listing:
        for line in listing:
            if ':file' not in line:
                continue
            entries.append({key: parse_value(value) for key, value in FIELD.findall(line)})
    return entries


def knossos_cell(entry):
    if entry is None:
        return 'missing'
    if entry.get('skipped'):
        return 'not run'
    ms = entry.get('time-ms', 0)
    if entry.get('error'):
        return 'threw %s (%d ms)' % (entry['error'].split(':')[0].split('.')[-1], ms)
    valid = entry.get('valid?')
    if valid is True:
        return 'linearizable, %d ms' % ms
    if valid is False:
        return 'not-linearizable, %d ms' % ms
    return 'unknown (%s), %d ms' % (str(entry.get('cause', '')).lstrip(':'), ms)


def knossos_word(entry):
    if entry is None:
        return 'missing'
    if entry.get('skipped'):
        return 'not run'
    if entry.get('error'):
        return 'threw'
    return {True: 'linearizable', False: 'not-linearizable'}.get(entry.get('valid?'), 'unknown')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--ariadne', default='build/ariadne')
    parser.add_argument('--corpus', required=True, help='expected.tsv or directory')
    parser.add_argument('--listing', required=True, help="the harness's EDN listing for this corpus")
    parser.add_argument('--timeout', default='60', help="ariadne's --timeout per row, in seconds")
    args = parser.parse_args()

    report = subprocess.run([args.ariadne, 'corpus', args.corpus, '--json'], capture_output=True, text=True)
    rows = json.loads(report.stdout)['rows']
    folder = args.corpus if os.path.isdir(args.corpus) else os.path.dirname(args.corpus)
    listing = read_listing(args.listing)

    def entry_for(row, analyzer):
        for entry in listing:
            if entry.get('file') == row['file'] and entry.get('analyzer') == ':' + analyzer and \
                    entry.get('model', row['model']) == row['model']:
                return entry
        return None

    counts = {name: Counter() for name in ('ariadne', 'wgl', 'linear')}
    seconds = Counter()
    print('| file | model | expected | ariadne (default check) | Knossos wgl | Knossos linear |')
    print('| --- | --- | --- | --- | --- | --- |')
    for row in rows:
        path = os.path.join(folder, row['file'])
        run = subprocess.run([args.ariadne, 'check', path, '--model', row['model'], '--json',
                              '--timeout', args.timeout], capture_output=True, text=True)
        try:
            answer = json.loads(run.stdout)
            ms = answer.get('total_ms', answer.get('elapsed_ms', 0))
            ours = '%s, %s ms' % (answer['verdict'], ('%.1f' if ms < 10 else '%.0f') % ms)
            counts['ariadne'][answer['verdict']] += 1
            seconds['ariadne'] += answer.get('total_ms', 0) / 1000
        except ValueError:
            ours = 'error (exit %d)' % run.returncode
            counts['ariadne']['error'] += 1
        cells = []
        for analyzer in ('wgl', 'linear'):
            entry = entry_for(row, analyzer)
            cells.append(knossos_cell(entry))
            counts[analyzer][knossos_word(entry)] += 1
            if entry and not entry.get('skipped'):
                seconds[analyzer] += entry.get('time-ms', 0) / 1000
        print('| `%s` | %s | %s | %s | %s | %s |' % (row['file'], row['model'], row['expected'], ours, *cells))
    print()
    print('| checker | linearizable | not-linearizable | unknown | threw | not run | time |')
    print('| --- | ---: | ---: | ---: | ---: | ---: | ---: |')
    for name, label in (('ariadne', 'ariadne'), ('wgl', 'Knossos wgl'), ('linear', 'Knossos linear')):
        c = counts[name]
        print('| %s | %d | %d | %d | %d | %d | %.1f s |' % (label, c['linearizable'], c['not-linearizable'],
                                                             c['unknown'], c['threw'], c['not run'], seconds[name]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
