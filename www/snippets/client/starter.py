# Your lease client. It acquires, renews every renew_every, writes every work_every with its
# token, and stops when the lock service answers NOT_OWNER. It looks fine on "Healthy holder".
#
# Now run it against "Client clock steps back (NTP)" and "Stop-the-world pause in the write
# path" (also "Pause between writes") and read the checks: it writes on past its safe
# deadline, as a zombie, until NOT_OWNER comes. Two things to fix, both from the lesson:
#   1. It schedules renewals on the WALL clock (time.time, node.at_wall). An NTP step moves
#      that clock; schedule on the monotonic clock (node.after) instead.
#   2. It trusts the lock service to tell it when the lease is gone. A frozen or cut-off
#      client hears nothing. Keep a safe deadline (the acquire's or renew's SEND time + ttl
#      - drift_margin), declare node.lost("deadline") when it passes without a confirmed
#      renew, and check it before every write.
#
# The lab calls start(node), reply(node, answer) and timer(node, name); a handler asks
# `node` to do things and returns. "Show a solution" opens a reference client.
import time
from types import SimpleNamespace


def wall_ms():
    return time.time() * 1000


RENEW_EVERY = RETRY_EVERY = ACQUIRE_RETRY = REQUEST_TIMEOUT = WORK_EVERY = 0
RELEASE_AFTER = None

client = SimpleNamespace(
    state="idle",  # acquiring, holding, lost, releasing, released
    token=0,
    sent=None,  # the request awaiting an answer: its id and when it was sent
)


def start(node):
    global RENEW_EVERY, RETRY_EVERY, ACQUIRE_RETRY, REQUEST_TIMEOUT, WORK_EVERY, RELEASE_AFTER
    s = node.settings  # milliseconds
    RENEW_EVERY = s.renew_every
    RETRY_EVERY = s.retry_every
    ACQUIRE_RETRY = s.acquire_retry
    REQUEST_TIMEOUT = s.request_timeout
    WORK_EVERY = s.work_every
    RELEASE_AFTER = s.release_after
    send_acquire(node)


def send_acquire(node):
    client.state = "acquiring"
    client.sent = SimpleNamespace(request=node.acquire(node.settings.ttl), at=wall_ms())
    node.after(REQUEST_TIMEOUT, "timeout")


def reply(node, answer):
    sent = client.sent
    if sent is None or answer.request != sent.request:
        return  # an old answer
    client.sent = None
    node.cancel("timeout")
    if client.state == "acquiring" and answer.kind == "granted":
        client.state = "holding"
        client.token = answer.token
        node.at_wall(sent.at + RENEW_EVERY, "renew")  # renew renew_every after we asked
        node.after(0, "work")  # start the critical section
        if RELEASE_AFTER is not None:
            node.after(RELEASE_AFTER, "release")
    elif client.state == "acquiring" and answer.kind == "busy":
        node.at_wall(sent.at + ACQUIRE_RETRY, "acquire")
    elif client.state == "holding" and answer.kind == "renewed":
        node.at_wall(sent.at + RENEW_EVERY, "renew")
    elif client.state == "holding" and answer.kind == "not_owner":
        lose(node, "not_owner")  # the service says it is gone: stop
    elif client.state == "releasing" and answer.kind == "released":
        client.state = "released"


def timer(node, name):
    sent = client.sent
    if name == "acquire" and client.state == "acquiring":
        send_acquire(node)
    elif name == "timeout" and sent is not None:
        client.sent = None
        if client.state == "acquiring":
            node.at_wall(wall_ms() + ACQUIRE_RETRY, "acquire")
        # A timeout is only a blip: the service would say NOT_OWNER if we had lost it.
        if client.state == "holding":
            node.at_wall(wall_ms() + RETRY_EVERY, "renew")
        if client.state == "releasing":
            client.state = "released"
    elif name == "renew" and client.state == "holding" and sent is None:
        client.sent = SimpleNamespace(request=node.renew(client.token), at=wall_ms())
        node.after(REQUEST_TIMEOUT, "timeout")
    elif name == "work" and client.state == "holding":
        node.write(client.token)  # we hold the lease, so write
        node.after(WORK_EVERY, "work")
    elif name == "release" and client.state == "holding":
        for t in ["renew", "work", "timeout"]:
            node.cancel(t)
        client.state = "releasing"
        client.sent = SimpleNamespace(request=node.release(client.token), at=wall_ms())
        node.after(REQUEST_TIMEOUT, "timeout")


def lose(node, reason):
    for t in ["acquire", "renew", "work", "release", "timeout"]:
        node.cancel(t)
    client.state = "lost"
    node.lost(reason)  # the lost flag: no more writes
    node.release(client.token)  # best-effort unlock, not awaited
