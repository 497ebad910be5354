# Random scenarios for mirror.rs / drive.cjs / drive.py, one a line: latency ttl renew retry
# acquire_retry timeout work margin release_after(-1: none) end, the pauses, then each
# request's fate (0 answered, 1 lost, 2 BUSY or NOT_OWNER). Round numbers, so timers tie.
# Usage: python3 gen.py <seed> <count>
import random, sys
r = random.Random(int(sys.argv[1])); n = int(sys.argv[2])
G = lambda *xs: r.choice(xs)
for _ in range(n):
    ms = 1000
    ttl = G(1000, 2000, 3000, 5000, 10000, 15000) * ms
    renew = G(ttl // 3, ttl // 2, ttl // 5, 1000 * ms, 500 * ms, r.randrange(1, 60) * 100 * ms)
    retry = G(100, 200, 500, 1000, 2000) * ms
    acq = G(100, 500, 1000, 2000) * ms
    timeout = G(100, 200, 500, 1000, 2000) * ms
    work = G(100, 200, 500, 1000, 250, 333) * ms
    margin = G(0, 100, 500, 1000, 5000) * ms
    margin = min(margin, ttl - 100 * ms)
    rel = G(-1, -1, -1, 1000 * ms, 2000 * ms, 5000 * ms, 3000 * ms)
    lat = G(0, 0, 5, 10, 50, 100, 250, 500, 1000, 3000) * ms + G(0, 0, 0, 1, 333)
    end = G(10, 20, 30, 60) * 1000 * ms
    pauses = []
    t = 0
    for _ in range(r.choice([0, 0, 1, 1, 2, 3])):
        t += r.randrange(1, 100) * 100 * ms
        d = r.randrange(1, 200) * 100 * ms
        pauses.append((t, t + d))
        t += r.randrange(0, 50) * 100 * ms
    p = r.choice([0.0, 0.1, 0.3, 0.6])
    q = r.choice([0.0, 0.05, 0.2])
    fates = [1 if r.random() < p else (2 if r.random() < q else 0) for _ in range(60)]
    f = [lat, ttl, renew, retry, acq, timeout, work, margin, rel, end, len(pauses)]
    for a, b in pauses: f += [a, b]
    f += [len(fates)] + fates
    print(" ".join(map(str, f)))
