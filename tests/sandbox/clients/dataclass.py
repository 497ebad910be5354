# The reference client as a learner might write it in Python: a dataclass (annotations left
# as strings), an Enum, a namedtuple, an OrderedDict, math, and match on a tuple.
from __future__ import annotations
import math
from collections import OrderedDict, namedtuple
from dataclasses import dataclass, field
from enum import Enum, auto
from typing import Optional

class State(Enum):
    IDLE = auto(); ACQUIRING = auto(); HOLDING = auto(); LOST = auto(); RELEASING = auto(); RELEASED = auto()

Sent = namedtuple("Sent", "request at")
ORDER = ("acquire", "timeout", "renew", "deadline", "work", "release")

def us(ms: float) -> int:
    return int(math.floor(ms * 1000 + 0.5))

@dataclass
class Client:
    state: State = State.IDLE
    token: int = 0
    deadline: int = 0
    sent: Optional[Sent] = None
    due: OrderedDict = field(default_factory=OrderedDict)
    cfg: dict = field(default_factory=dict)

    def now(self, node) -> int:
        return us(node.monotonic())

    def arm(self, node, name, at):
        t = self.now(node)
        self.due[name] = max(at, t)
        for n in ORDER[ORDER.index(name):]:
            if n == name or self.due.get(n) == self.due[name]:
                node.cancel(n)
                node.after((self.due[n] - t) / 1000, n)

    def disarm(self, node, name):
        node.cancel(name); self.due.pop(name, None)

    def disarm_all(self, node):
        for n in list(self.due): node.cancel(n)
        self.due.clear()

c = Client()

def start(node):
    s = node.settings
    c.cfg = {k: (None if getattr(s, k) is None else us(getattr(s, k))) for k in
             ("ttl", "renew_every", "retry_every", "acquire_retry", "request_timeout", "work_every", "drift_margin", "release_after")}
    send_acquire(node)

def send_acquire(node):
    c.state = State.ACQUIRING
    c.sent = Sent(node.acquire(node.settings.ttl), c.now(node))
    c.arm(node, "timeout", c.sent.at + c.cfg["request_timeout"])

def reply(node, answer):
    sent = c.sent
    if sent is None or answer["request"] != sent.request:
        return
    match (c.state, answer.kind):
        case (State.ACQUIRING, "granted"):
            c.state, c.token, c.sent = State.HOLDING, answer.token, None
            c.disarm(node, "timeout")
            c.deadline = sent.at + c.cfg["ttl"] - c.cfg["drift_margin"]
            c.arm(node, "renew", sent.at + c.cfg["renew_every"])
            c.arm(node, "deadline", c.deadline)
            c.arm(node, "work", c.now(node))
            if c.cfg["release_after"] is not None:
                c.arm(node, "release", c.now(node) + c.cfg["release_after"])
        case (State.ACQUIRING, "busy"):
            c.sent = None
            c.disarm(node, "timeout")
            c.arm(node, "acquire", sent.at + c.cfg["acquire_retry"])
        case (State.HOLDING, "renewed"):
            c.sent = None
            c.disarm(node, "timeout")
            c.deadline = sent.at + c.cfg["ttl"] - c.cfg["drift_margin"]
            c.arm(node, "renew", sent.at + c.cfg["renew_every"])
            c.arm(node, "deadline", c.deadline)
        case (State.HOLDING, "not_owner"):
            lose(node, "not_owner")
        case (State.RELEASING, "released"):
            c.disarm_all(node); c.state = State.RELEASED
        case _:
            pass

def timer(node, name):
    c.due.pop(name, None)
    t, sent = c.now(node), c.sent
    if name == "acquire" and c.state is State.ACQUIRING and sent is None:
        send_acquire(node)
    elif name == "timeout" and sent is not None:
        c.sent = None
        if c.state is State.ACQUIRING: c.arm(node, "acquire", sent.at + c.cfg["acquire_retry"])
        if c.state is State.HOLDING: c.arm(node, "renew", sent.at + c.cfg["retry_every"])
        if c.state is State.RELEASING:
            c.disarm_all(node); c.state = State.RELEASED
    elif name == "renew" and c.state is State.HOLDING and sent is None:
        if t >= c.deadline:
            return lose(node, "deadline")
        c.sent = Sent(node.renew(c.token), t)
        c.arm(node, "timeout", t + c.cfg["request_timeout"])
    elif name == "deadline" and c.state is State.HOLDING:
        lose(node, "deadline")
    elif name == "work" and c.state is State.HOLDING:
        if t >= c.deadline:
            return lose(node, "deadline")
        node.write(c.token)
        c.arm(node, "work", t + c.cfg["work_every"])
    elif name == "release" and c.state is State.HOLDING:
        c.disarm_all(node); c.state = State.RELEASING
        c.sent = Sent(node.release(c.token), t)
        c.arm(node, "timeout", t + c.cfg["request_timeout"])

def lose(node, reason):
    c.disarm_all(node)
    c.state, c.sent = State.LOST, None
    node.lost(reason)
    node.release(c.token)
