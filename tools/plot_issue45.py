#!/usr/bin/env python3
"""Draws docs/images/issue45_per_client.svg from the numbers in docs/performance.md.

Left: instructions per client before and after issue 45 (the section's table, read from the doc),
log scale, with the targets. Right: the memory and time targets, each measured figure as a share
of its target (1 = the target; below it, met). The right panel's figures are the words of issue
45's sections (the executor per client; item 4, big inputs), each checked to be in their text, so the plot cannot drift from the doc unnoticed.

  /usr/bin/python3 tools/plot_issue45.py [--doc docs/performance.md] [--out docs/images/issue45_per_client.svg]

Needs matplotlib (Debian: python3-matplotlib). The SVG is deterministic (no date, fixed ids).
"""
import argparse
import re
import sys

import matplotlib

matplotlib.use('svg')
import matplotlib.pyplot as plt  # noqa: E402

SECTION = '## Issue 45: the executor per client'

# (label, measured, target, unit, the words of the doc that hold the two numbers)
BUDGETS = [
    ('ctff-run, 1,000,000 int32 clients:\npeak memory', 23, 64, 'MiB',
     ['**23 MiB**', 'target ≤ 64 MiB']),
    ('in process: bytes per int32 client\nabove the raw data', 12, 16, 'B',
     ['**12 bytes\n  above the raw data**', 'target ≤ 16']),
    ('68 MB FedAvg JSON argument:\nwall time', 0.41, 1.0, 's',
     ['| 0.41 s (0.41–0.79) |', '≤ 1 s']),
    ('68 MB FedAvg JSON argument:\npeak memory (2 × 64.2 MiB)', 107, 128.4, 'MiB',
     ['107 MiB (1.7× the text)', '≤ 2× its size']),
    ('the same argument as .npz:\nwall time', 0.18, 0.2, 's',
     ['| 0.18 s (0.18–0.60) |', '≤ 0.2 s']),
    ('threads 1 → 2, ~1.7 µs per client:\nspeed-up (target ≥ 1.8×)', 1.87, 1.8, '×',
     ['**median 1.87×**', 'target ≥ 1.8×']),
]


def num(s):
  s = s.replace('*', '').replace(',', '').strip()
  m = re.match(r'[≤ ]*([0-9.]+)', s)
  return float(m.group(1)) if m else None


def read_section(doc):
  text = open(doc, encoding='utf-8').read()
  start = text.index(SECTION)
  end = start + len(SECTION)
  while True:  # up to the first section that is not one of issue 45's (item 4 holds the JSON rows)
    end = text.find('\n## ', end)
    if end < 0 or not text.startswith('\n## Issue 45', end):
      break
    end += 1
  return text[start:end if end >= 0 else len(text)]


def read_table(section):
  lines = section.splitlines()
  first = next(i for i, l in enumerate(lines) if l.startswith('| instructions per client'))
  rows = []
  for line in lines[first + 2:]:  # past the header and its |---| line, to the table's end
    if not line.startswith('|'):
      break
    cells = [c.strip() for c in line.strip('|').split('|')]
    if len(cells) < 4:
      break
    name, before, *afters, target = cells  # the latest "after" column is plotted
    after = afters[-1]
    rows.append((name.replace('`', ''), num(before), num(after), num(target)))
  if len(rows) != 4 or any(r[1] is None or r[2] is None for r in rows):
    sys.exit(f'expected the four rows of the instructions table, found {rows}')
  return rows


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument('--doc', default='docs/performance.md')
  ap.add_argument('--out', default='docs/images/issue45_per_client.svg')
  a = ap.parse_args()
  section = read_section(a.doc)
  rows = read_table(section)
  flat = ' '.join(section.split())
  for label, *_, words in BUDGETS:
    for w in words:
      if ' '.join(w.split()) not in flat:
        sys.exit(f'"{w}" (for {label!r}) is no longer in the section: update {__file__}')

  plt.rcParams['svg.hashsalt'] = 'ctff-issue45'
  plt.rcParams['font.size'] = 9
  plt.rcParams['svg.fonttype'] = 'none'  # text as text: smaller, searchable
  fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.6), gridspec_kw={'width_ratios': [1.15, 1]})

  # Left: instructions per client, before and after, log scale.
  labels = [r[0].replace(': ', ':\n', 1) + (f'\n(target ≤ {r[3]:,.0f})' if r[3] else '') for r in rows]
  y = range(len(rows))
  h = 0.38
  ax1.barh([i - h / 2 for i in y], [r[1] for r in rows], h, color='#bbbbbb', label='before (main at 94a98d4)')
  ax1.barh([i + h / 2 for i in y], [r[2] for r in rows], h, color='#2c7fb8', label='after')
  for i, (_, before, after, target) in enumerate(rows):
    ax1.text(before * 1.08, i - h / 2, f'{before:,.0f}', va='center', fontsize=8)
    ax1.text(max(after, target or 0) * 1.08, i + h / 2, f'{after:,.0f}', va='center', fontsize=8, color='#2c7fb8')
    if target:
      ax1.plot([target, target], [i - 0.45, i + 0.45], color='#d95f02', lw=2,
               label='target' if i == 1 else None)
  ax1.set_xscale('log')
  ax1.set_xlim(20, 30000)
  ax1.set_yticks(list(y))
  ax1.set_yticklabels(labels)
  ax1.invert_yaxis()
  ax1.set_xlabel('instructions per client (callgrind, 1 thread; log scale)')
  ax1.set_title('Per-client cost, before and after')
  ax1.legend(loc='upper center', bbox_to_anchor=(0.5, -0.13), ncol=3, fontsize=8, frameon=False)

  # Right: memory and time, measured as a share of the target.
  y2 = range(len(BUDGETS))
  shares = []
  for label, measured, target, unit, _ in BUDGETS:
    # a speed-up is better when larger: show target / measured so that below 1 is met too
    shares.append(target / measured if unit == '×' else measured / target)
  ax2.barh(list(y2), shares, 0.55, color=['#1b9e77' if s <= 1 else '#d95f02' for s in shares])
  ax2.axvline(1.0, color='#d95f02', lw=2)
  for i, ((label, measured, target, unit, _), s) in enumerate(zip(BUDGETS, shares)):
    t = f'{measured:g} {unit} of {target:g} {unit}' if unit != '×' else f'{measured:g}× (≥ {target:g}×)'
    ax2.text(s + 0.02, i, t, va='center', fontsize=8)
  ax2.set_yticks(list(y2))
  ax2.set_yticklabels([b[0] for b in BUDGETS], fontsize=8)
  ax2.invert_yaxis()
  ax2.set_xlim(0, 1.6)
  ax2.set_xlabel('measured ÷ target (speed-up: target ÷ measured)\n≤ 1: the target is met')
  ax2.set_title('Memory, time and threads targets (after)')

  fig.suptitle('Issue 45: the executor per client (numbers from docs/performance.md)', fontsize=10)
  fig.tight_layout()
  fig.savefig(a.out, format='svg', metadata={'Date': None})
  print(f'wrote {a.out}')


if __name__ == '__main__':
  main()
