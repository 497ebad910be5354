# Lost flag stops writes. Holder A heartbeats on its monotonic clock. Once its renewals
# fail past the budget, it sets a lost flag and skips every later write. A write that left
# before the loss is still stopped by the storage's fence.
import time

TTL = 0.150                 # lease length T, in seconds
HEARTBEAT = TTL / 3         # renew at T/3: three chances before the lease runs out
DRIFT_MARGIN = 0.020        # give up a little before the service would expire us
RENEWS_FAIL_FROM_BEAT = 3   # from this heartbeat on, A's renewals time out
HELD_UP_WRITE_BEAT = 4      # the write sent at this beat is delayed in the network
BEATS = 6


def wait_until(deadline):
    # Busy-wait on the monotonic clock; a wall clock can jump when NTP steps it.
    while time.monotonic() < deadline:
        pass


class LockService:
    """The authority: owns expiry on its own monotonic clock and hands out fencing tokens."""

    def __init__(self):
        self.last_token = 0
        self.holder = None
        self.expires_at = 0.0

    def acquire(self, client):
        now = time.monotonic()
        if self.holder is not None and now < self.expires_at:
            return None
        self.last_token += 1
        self.holder, self.expires_at = client, now + TTL
        return self.last_token

    def renew(self, client, token):
        # Compare-and-expire: only the current, unexpired holder may extend.
        now = time.monotonic()
        if self.holder != client or token != self.last_token or now >= self.expires_at:
            return "NOT_OWNER"
        self.expires_at = now + TTL
        return "OK"


class FencedStorage:
    """Rejects a write whose token is below the highest token it has accepted."""

    def __init__(self):
        self.highest = 0
        self.rows = []

    def write(self, token, value):
        if token < self.highest:
            return f"rejected, token {token} < {self.highest}"
        self.highest = token
        self.rows.append(value)
        return "accepted"


class Holder:
    def __init__(self, name, service):
        self.name = name
        self.service = service
        self.token = service.acquire(name)
        self.safe_until = time.monotonic() + TTL - DRIFT_MARGIN
        self.lost = False

    def heartbeat(self, reaches_service):
        if self.lost:
            return "lost, no renew"
        sent_at = time.monotonic()
        answer = self.service.renew(self.name, self.token) if reaches_service else "TIMEOUT"
        if answer == "OK":
            # The safe deadline counts from when the renew was sent, not when it came back.
            self.safe_until = sent_at + TTL - DRIFT_MARGIN
            return "renew ok"
        if answer == "TIMEOUT" and time.monotonic() < self.safe_until:
            return "renew timed out, budget left, retry"
        self.lost = True
        return "renew failed past its budget: LOST (unlock sent, not awaited)"


service, storage = LockService(), FencedStorage()
start = time.monotonic()
a = Holder("A", service)
print(f"A acquired the lease, token {a.token} "
      f"(T = {TTL * 1000:.0f} ms, heartbeat every {HEARTBEAT * 1000:.0f} ms)")
held_up = None
for beat in range(1, BEATS + 1):
    wait_until(start + beat * HEARTBEAT)
    renew = a.heartbeat(reaches_service=beat < RENEWS_FAIL_FROM_BEAT)
    value = f"a{beat}"
    if a.lost:
        write = f"write {value} skipped (lost flag set)"
    elif beat == HELD_UP_WRITE_BEAT:
        held_up = (a.token, value)
        write = f"write {value} sent with token {a.token}, held up in the network"
    else:
        write = f"write {value} with token {a.token} {storage.write(a.token, value)}"
    print(f"beat {beat}: {renew}; {write}")

b_token = service.acquire("B")
print(f"B acquired the lease, token {b_token}; "
      f"write b1 with token {b_token} {storage.write(b_token, 'b1')}")
if held_up:
    token, value = held_up
    print(f"A's held-up write {value} arrives: {storage.write(token, value)}")
print(f"storage holds {' '.join(storage.rows)}; nothing from A after its lost flag")
