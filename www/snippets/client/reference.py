# A reference lease client: the lesson's heartbeat, written to behave exactly like the lab's
# built-in client under the Prefer policy. Acquire with TTL T, renew on the monotonic clock,
# retry a timeout inside the remaining budget, fail closed at the safe deadline, put the
# token on every write, and after a loss send a best-effort unlock without waiting for it.
#
# The lab calls start(node), reply(node, answer) and timer(node, name). A handler only asks
# `node` to do things (send, write, arm a timer) and returns: nothing here sleeps or blocks.
from types import SimpleNamespace


def us(ms):
    # Whole microseconds, as the model counts. With float milliseconds a retry due at the
    # very instant of the safe deadline could land on the wrong side of "deadline passed".
    return round(ms * 1000)


def now(node):
    # The MONOTONIC clock: an NTP step cannot move it (time.monotonic() reads the same clock).
    return us(node.monotonic())


TTL = RENEW_EVERY = RETRY_EVERY = ACQUIRE_RETRY = 0
REQUEST_TIMEOUT = WORK_EVERY = DRIFT_MARGIN = 0
RELEASE_AFTER = None

client = SimpleNamespace(
    state="idle",  # acquiring, holding, lost (the lost flag), releasing, released
    token=0,
    deadline=0,  # the safe deadline while holding
    sent=None,  # the one request awaiting an answer: its id and its send time
)

# One timer per purpose. Timers due at the same instant fire in the order they were armed;
# the built-in client breaks such ties in ORDER, so arm() keeps the arming order that way.
ORDER = ["acquire", "timeout", "renew", "deadline", "work", "release"]
due = {}


def arm(node, name, at):
    t = now(node)
    due[name] = max(at, t)  # a deadline already behind us fires at once
    for n in ORDER[ORDER.index(name):]:
        if n == name or due.get(n) == due[name]:
            node.cancel(n)
            node.after((due[n] - t) / 1000, n)


def disarm(node, name):
    node.cancel(name)
    due.pop(name, None)


def disarm_all(node):
    for name in due:
        node.cancel(name)
    due.clear()


def start(node):
    global TTL, RENEW_EVERY, RETRY_EVERY, ACQUIRE_RETRY
    global REQUEST_TIMEOUT, WORK_EVERY, DRIFT_MARGIN, RELEASE_AFTER
    s = node.settings
    TTL = us(s.ttl)
    RENEW_EVERY = us(s.renew_every)
    RETRY_EVERY = us(s.retry_every)
    ACQUIRE_RETRY = us(s.acquire_retry)
    REQUEST_TIMEOUT = us(s.request_timeout)
    WORK_EVERY = us(s.work_every)
    DRIFT_MARGIN = us(s.drift_margin)
    RELEASE_AFTER = None if s.release_after is None else us(s.release_after)
    send_acquire(node)


def send_acquire(node):
    client.state = "acquiring"
    client.sent = SimpleNamespace(request=node.acquire(node.settings.ttl), at=now(node))
    arm(node, "timeout", client.sent.at + REQUEST_TIMEOUT)


def reply(node, answer):
    # Only the answer to the request we are waiting for counts; a late one is ignored.
    sent = client.sent
    if sent is None or answer.request != sent.request:
        return
    if client.state == "acquiring" and answer.kind == "granted":
        client.state = "holding"
        client.token = answer.token
        client.sent = None
        disarm(node, "timeout")
        # Count the lease from when we SENT the acquire: the service started T no earlier.
        client.deadline = sent.at + TTL - DRIFT_MARGIN
        arm(node, "renew", sent.at + RENEW_EVERY)
        arm(node, "deadline", client.deadline)
        arm(node, "work", now(node))  # the critical section starts: its first write at once
        if RELEASE_AFTER is not None:
            arm(node, "release", now(node) + RELEASE_AFTER)
    elif client.state == "acquiring" and answer.kind == "busy":
        client.sent = None
        disarm(node, "timeout")
        arm(node, "acquire", sent.at + ACQUIRE_RETRY)
    elif client.state == "holding" and answer.kind == "renewed":
        client.sent = None
        disarm(node, "timeout")
        # The new deadline also counts from the renew's send time, not from the answer.
        client.deadline = sent.at + TTL - DRIFT_MARGIN
        arm(node, "renew", sent.at + RENEW_EVERY)
        arm(node, "deadline", client.deadline)
    elif client.state == "holding" and answer.kind == "not_owner":
        lose(node, "not_owner")  # definitive: someone else may hold it now, so no retry
    elif client.state == "releasing" and answer.kind == "released":
        disarm_all(node)
        client.state = "released"


def timer(node, name):
    due.pop(name, None)
    t = now(node)
    sent = client.sent
    if name == "acquire" and client.state == "acquiring" and sent is None:
        send_acquire(node)
    elif name == "timeout" and sent is not None:
        client.sent = None
        if client.state == "acquiring":
            arm(node, "acquire", sent.at + ACQUIRE_RETRY)
        # One timeout is not a loss while the budget remains: retry (the deadline ends it).
        if client.state == "holding":
            arm(node, "renew", sent.at + RETRY_EVERY)
        if client.state == "releasing":
            disarm_all(node)  # a polite release is not worth waiting on forever
            client.state = "released"
    elif name == "renew" and client.state == "holding" and sent is None:
        # No budget left: fail closed rather than renew late.
        if t >= client.deadline:
            return lose(node, "deadline")
        client.sent = SimpleNamespace(request=node.renew(client.token), at=t)
        arm(node, "timeout", t + REQUEST_TIMEOUT)
    elif name == "deadline" and client.state == "holding":
        lose(node, "deadline")  # no confirmed renew in time: assume the lease is gone
    elif name == "work" and client.state == "holding":
        # Check the deadline right before writing: a pause may have frozen the heartbeat too.
        if t >= client.deadline:
            return lose(node, "deadline")
        node.write(client.token)  # the token on every write, so storage can fence a stale one
        arm(node, "work", t + WORK_EVERY)
    elif name == "release" and client.state == "holding":
        disarm_all(node)
        client.state = "releasing"
        client.sent = SimpleNamespace(request=node.release(client.token), at=t)
        arm(node, "timeout", t + REQUEST_TIMEOUT)


def lose(node, reason):
    disarm_all(node)  # nothing more to renew, retry or write
    client.state = "lost"
    client.sent = None
    node.lost(reason)  # the lost flag: from here on no write goes out
    node.release(client.token)  # best-effort unlock: not awaited, not retried
