# A fake lab for a learner's Python client (www/snippets/client/*.py), the twin of drive.cjs:
# the same node API, timer rules and scripted world; time.time() and time.monotonic() read
# the node's clocks. Usage: python3 drive.py client.py scenarios.txt out.txt
import sys, types

src_path, inp, outp = sys.argv[1:4]
src = open(src_path).read()


import os
CLOCK = types.SimpleNamespace(now=0)
STEP_AT, STEP_BY = (int(x) for x in os.environ.get("WALL_STEP", "0,0").split(","))
EPOCH = 1_700_000_000_000_000


def wall_off():
    return EPOCH + (STEP_BY if STEP_BY and CLOCK.now >= STEP_AT else 0)


fake_time = types.ModuleType("time")
fake_time.time = lambda: (CLOCK.now + wall_off()) / 1e6
fake_time.monotonic = lambda: CLOCK.now / 1e6
sys.modules["time"] = fake_time


def make():
    mod = types.ModuleType("client")
    exec(compile(src, src_path, "exec"), mod.__dict__)
    return mod


def run(line):
    v = [int(x) for x in line.split()]
    lat, ttl, renew, retry, acq, timeout, work, margin, rel, end = v[:10]
    np_ = v[10]
    pauses = [(v[11 + 2 * i], v[12 + 2 * i]) for i in range(np_)]
    nf = v[11 + 2 * np_]
    fates = v[12 + 2 * np_: 12 + 2 * np_ + nf]
    client = make()
    st = types.SimpleNamespace(out=[], now=0, seq=0, arm=0, nreq=0, nwrite=0, lost=False)
    flight, inbox, timers = [], [], {}

    def check(x, what):
        if not (isinstance(x, (int, float)) and x >= 0):
            raise ValueError(f"{what}: bad {x}")

    def send(kind):
        st.nreq += 1
        req = st.nreq
        st.out.append(f"{st.now} {['acquire', 'renew', 'release'][kind]} {req}")
        fate = fates[req - 1] if req - 1 < len(fates) else 0
        if fate != 1:
            kinds = [["granted", "busy"], ["renewed", "not_owner"], ["released", "released"]][kind]
            st.seq += 1
            ans = types.SimpleNamespace(kind=kinds[0 if fate == 0 else 1], request=req, token=33, deleted=True)
            flight.append((st.now + 2 * lat, st.seq, ans))
        return req

    def tok(t):
        if t != 33:
            raise ValueError("token")

    def write(t):
        tok(t)
        if st.lost:
            raise ValueError("write after lost")
        st.nwrite += 1
        st.out.append(f"{st.now} write {st.nwrite}")
        return st.nwrite

    def after(ms, name):
        check(ms, "after")
        st.arm += 1
        timers[name] = (st.now + round(ms * 1000), st.arm)

    def at_wall(ms, name):
        check(ms, "at_wall")
        st.arm += 1
        timers[name] = (round(ms * 1000), st.arm, "wall")

    def lost(reason="deadline"):
        st.lost = True
        st.out.append(f"{st.now} lost {reason}")

    def acquire(ms):
        check(ms, "acquire")
        assert round(ms * 1000) == ttl
        return send(0)

    node = types.SimpleNamespace(
        name="A",
        settings=types.SimpleNamespace(ttl=ttl / 1000, renew_every=renew / 1000, retry_every=retry / 1000,
                                       acquire_retry=acq / 1000, request_timeout=timeout / 1000,
                                       work_every=work / 1000, drift_margin=margin / 1000,
                                       release_after=None if rel < 0 else rel / 1000),
        acquire=acquire, renew=lambda t: (tok(t), send(1))[1], release=lambda t: (tok(t), send(2))[1],
        write=write, after=after, at_wall=at_wall, cancel=lambda name: timers.pop(name, None), lost=lost,
        monotonic=lambda: st.now / 1000, wall=lambda: (st.now + wall_off()) / 1000,
    )

    def next_timer():
        if not timers:
            return None
        def key(n):
            t = timers[n]
            return (t[0] - wall_off() if len(t) == 3 else t[0], t[1])
        name = min(timers, key=key)
        return name, key(name)[0]

    paused_until, next_pause = None, 0
    CLOCK.now = 0
    client.start(node)
    while True:
        best = None

        def consider(t, k):
            nonlocal best
            if best is None or t < best[0]:
                best = (t, k)
        if next_pause < len(pauses):
            consider(max(pauses[next_pause][0], st.now), 0)
        if flight:
            flight.sort(key=lambda f: (f[0], f[1]))
            consider(max(flight[0][0], st.now), 1)
        if paused_until is not None:
            consider(max(paused_until, st.now), 2)
        else:
            t = next_timer()
            m = inbox[0][0] if inbox else None
            if t and m is not None and m <= t[1]:
                consider(st.now, 3)
            elif not t and m is not None:
                consider(st.now, 3)
            elif t:
                consider(max(t[1], st.now), 4)
        if best is None or best[0] > end:
            break
        st.now, k = best
        CLOCK.now = st.now
        if k == 0:
            e = pauses[next_pause][1]
            next_pause += 1
            paused_until = e if paused_until is None else max(paused_until, e)
        elif k == 1:
            f = flight.pop(0)
            if paused_until is not None:
                inbox.append(f)
            else:
                client.reply(node, f[2])
        elif k == 2:
            paused_until = None
        elif k == 3:
            client.reply(node, inbox.pop(0)[2])
        else:
            name, _ = next_timer()
            del timers[name]
            client.timer(node, name)
    return "".join(l + "\n" for l in st.out)


lines = [l for l in open(inp).read().split("\n") if l.strip()]
open(outp, "w").write("".join(run(l) + "--\n" for l in lines))
