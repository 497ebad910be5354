# Lost flag stops writes. Holder A heartbeats on its monotonic clock and retries a failed
# renew while budget remains. A stop-the-world pause then carries it past the budget: the
# lost flag goes up and later writes are skipped, and the storage's fence rejects the write
# that was already in flight when the pause hit.
import time

TTL = 0.240                 # lease length T, in seconds
HEARTBEAT = TTL / 3         # renew at T/3: three chances before the lease runs out
DRIFT_MARGIN = 0.030        # give up a little before the service would expire us
RENEWS_FAIL_FROM_BEAT = 3   # from this heartbeat on, A's renewals time out
PAUSE_AFTER_BEAT = 3        # A freezes right after sending this beat's write...
PAUSE = 0.300               # ...for longer than the lease
BEATS = 5


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
        reason = "answered NOT_OWNER" if answer == "NOT_OWNER" else "timed out past its budget"
        return f"renew {reason}: LOST (unlock sent, not awaited)"


service, storage = LockService(), FencedStorage()
start = time.monotonic()
a = Holder("A", service)
print(f"A acquired the lease, token {a.token} "
      f"(T = {TTL * 1000:.0f} ms, heartbeat every {HEARTBEAT * 1000:.0f} ms)")
for beat in range(1, BEATS + 1):
    wait_until(start + beat * HEARTBEAT)  # after a pause, overdue beats fire at once
    renew = a.heartbeat(reaches_service=beat < RENEWS_FAIL_FROM_BEAT)
    value = f"a{beat}"
    if a.lost:
        print(f"beat {beat}: {renew}; write {value} skipped (lost flag set)")
    elif beat == PAUSE_AFTER_BEAT:
        print(f"beat {beat}: {renew}; write {value} sent with token {a.token}")
        wakes_at = time.monotonic() + PAUSE
        print(f"A freezes in a {PAUSE * 1000:.0f} ms stop-the-world pause; "
              f"write {value} is still in flight")
        wait_until(service.expires_at)
        b_token = service.acquire("B")
        print(f"B acquired the lease, token {b_token}, once A's lease expired; "
              f"write b1 with token {b_token} {storage.write(b_token, 'b1')}")
        wait_until(wakes_at)
        print(f"A wakes; its in-flight write {value} lands: {storage.write(a.token, value)}")
    else:
        print(f"beat {beat}: {renew}; write {value} with token {a.token} "
              f"{storage.write(a.token, value)}")

print(f"storage holds {' '.join(storage.rows)}; nothing from A after its lost flag")
