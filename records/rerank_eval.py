#!/usr/bin/env python3
"""How well cost-model columns rank measured kernels, per case and over all cases.

Reads `femgpu-bench -rerank` output: lines "operator|dim|degree|schedule|ms|...|t_memory|
n_sync|t_heur_1|...|t_heur_K" (the measured median in ms is field 5; the last K fields are
the t_heur columns, one per -rerank_barrier_ns value). For each case with at least
--min-kernels kernels and each column (t_memory first): Spearman's rho with the measured
times (ties share their mean rank) and the regret of the column's top k (the fastest
measured kernel among its k best over the case's fastest), k = 1, 5, 9; then the mean rho
and the geometric mean regrets over the cases. Reports; never passes or fails.
"""
import argparse
import collections
import math
import sys


def mean_ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    ranks = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2.0
        i = j + 1
    return ranks


def spearman(a, b):
    ra, rb = mean_ranks(a), mean_ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = math.sqrt(sum((x - ma) ** 2 for x in ra))
    vb = math.sqrt(sum((y - mb) ** 2 for y in rb))
    return cov / (va * vb) if va > 0 and vb > 0 else float('nan')


def regret(model, ms, k):
    order = sorted(range(len(model)), key=lambda i: model[i])  # stable: ties keep input order
    return min(ms[i] for i in order[:k]) / min(ms)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('file', help='femgpu-bench -rerank output (- for stdin)')
    p.add_argument('--columns', type=int, required=True, help='how many t_heur columns end each line')
    p.add_argument('--names', default='', help='comma-separated names of the t_heur columns')
    p.add_argument('--min-kernels', type=int, default=8)
    p.add_argument('--exclude', action='append', default=[], help='skip schedules containing this text')
    p.add_argument('--require', action='append', default=[], help='keep only schedules containing this text')
    p.add_argument('--per-case', action='store_true')
    a = p.parse_args()
    names = ['t_memory'] + (a.names.split(',') if a.names else ['t_heur_%d' % i for i in range(1, a.columns + 1)])
    if len(names) != a.columns + 1:
        sys.exit('rerank_eval: --names needs %d names' % a.columns)
    cases = collections.OrderedDict()
    for line in (sys.stdin if a.file == '-' else open(a.file)):
        f = line.rstrip('\n').split('|')
        if len(f) < 5 + 2 + a.columns:
            sys.exit('rerank_eval: too few fields in: ' + line.strip())
        if any(x in f[3] for x in a.exclude) or not all(x in f[3] for x in a.require):
            continue
        cols = [float(f[-a.columns - 2])] + [float(x) for x in f[-a.columns:]]
        cases.setdefault(tuple(f[:3]), {})[f[3]] = (float(f[4]), cols)  # a schedule timed twice: the last
    results = []
    for case, kernels in cases.items():
        if len(kernels) < a.min_kernels:
            continue
        ms = [v[0] for v in kernels.values()]
        per = []
        for c in range(len(names)):
            model = [v[1][c] for v in kernels.values()]
            per.append((spearman(model, ms), regret(model, ms, 1), regret(model, ms, 5), regret(model, ms, 9)))
        results.append((case, len(kernels), per))
        if a.per_case:
            print('%-22s n=%3d  rho %s  top-5 regret %s' % (' '.join(case), len(kernels), ' '.join('%5.2f' % x[0] for x in per),
                                                            ' '.join('%4.2f' % x[2] for x in per)))
    if not results:
        sys.exit('rerank_eval: no case with at least %d kernels' % a.min_kernels)
    print('%d cases; columns: %s' % (len(results), ', '.join(names)))
    for c, name in enumerate(names):
        rhos = [r[2][c][0] for r in results if not math.isnan(r[2][c][0])]
        g = lambda k: math.exp(sum(math.log(r[2][c][k]) for r in results) / len(results))
        print('%-12s mean rho %.3f  geomean regret top-1 %.3f top-5 %.3f top-9 %.3f' % (name, sum(rhos) / len(rhos), g(1), g(2), g(3)))


if __name__ == '__main__':
    main()
