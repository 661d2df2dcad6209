#!/usr/bin/env python3
"""Where a step goes: each operator's own time (its duration less its children's) in a Chrome trace written by
`attnlab-bench-models --trace DIR` (LibTorch's profiler over 10 steps), per step, largest first.

    python3 benchmarks/trace_ops.py /tmp/traces/essan-rpr.json [--steps 10] [--top 25]
"""
import argparse
import collections
import json


def own_times(events):
    """Self time by name: events of one thread nest (a parent's span holds its children's)."""
    totals = collections.Counter()
    counts = collections.Counter()
    by_thread = collections.defaultdict(list)
    for e in events:
        if e.get('ph') == 'X':
            by_thread[e.get('tid')].append(e)
    for spans in by_thread.values():
        spans.sort(key=lambda e: (e['ts'], -e['dur']))
        stack = []  # [end, name, children's time]
        for e in spans:
            while stack and e['ts'] >= stack[-1][0]:
                end, name, children, duration = stack.pop()
                totals[name] += duration - children
            if stack:
                stack[-1][2] += e['dur']
            stack.append([e['ts'] + e['dur'], e['name'], 0.0, e['dur']])
            counts[e['name']] += 1
        while stack:
            end, name, children, duration = stack.pop()
            totals[name] += duration - children
    return totals, counts


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('trace')
    p.add_argument('--steps', type=int, default=10)
    p.add_argument('--top', type=int, default=25)
    a = p.parse_args()
    with open(a.trace) as f:
        data = json.load(f)
    events = data['traceEvents'] if isinstance(data, dict) else data
    totals, counts = own_times(events)
    whole = sum(totals.values())
    print(f'{"operator":48} {"ms a step":>10} {"share":>7} {"calls a step":>13}')
    for name, us in totals.most_common(a.top):
        print(f'{name[:48]:48} {us / 1000 / a.steps:10.2f} {us / whole:7.1%} {counts[name] / a.steps:13.1f}')
    print(f'{"all operators":48} {whole / 1000 / a.steps:10.2f}')


if __name__ == '__main__':
    main()
