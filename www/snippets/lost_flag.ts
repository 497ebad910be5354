// Lost flag stops writes. Holder A heartbeats on its monotonic clock and retries a failed
// renew while budget remains. A stop-the-world pause then carries it past the budget: the
// lost flag goes up and later writes are skipped, and the storage's fence rejects the write
// that was already in flight when the pause hit.

const TTL_MS = 240; // lease length T
const HEARTBEAT_MS = TTL_MS / 3; // renew at T/3: three chances before the lease runs out
const DRIFT_MARGIN_MS = 30; // give up a little before the service would expire us
const RENEWS_FAIL_FROM_BEAT = 3; // from this heartbeat on, A's renewals time out
const PAUSE_AFTER_BEAT = 3; // A freezes right after sending this beat's write...
const PAUSE_MS = 300; // ...for longer than the lease
const BEATS = 5;

type Token = number;
type RenewAnswer = "OK" | "NOT_OWNER" | "TIMEOUT";

// performance.now() is monotonic; Date.now() can jump when NTP steps the wall clock.
// A timer may fire a little early by this clock, so sleep again until the deadline is reached.
async function sleepUntil(deadline: number): Promise<void> {
  while (performance.now() < deadline) {
    await new Promise((wake) => setTimeout(wake, deadline - performance.now()));
  }
}

/** The authority: owns expiry on its own monotonic clock and hands out fencing tokens. */
class LockService {
  private lastToken: Token = 0;
  private holder: string | null = null;
  expiresAt = 0;

  acquire(client: string): Token | null {
    const now = performance.now();
    if (this.holder !== null && now < this.expiresAt) return null;
    this.lastToken += 1;
    this.holder = client;
    this.expiresAt = now + TTL_MS;
    return this.lastToken;
  }

  // Compare-and-expire: only the current, unexpired holder may extend.
  renew(client: string, token: Token): RenewAnswer {
    const now = performance.now();
    if (this.holder !== client || token !== this.lastToken || now >= this.expiresAt) {
      return "NOT_OWNER";
    }
    this.expiresAt = now + TTL_MS;
    return "OK";
  }
}

/** Rejects a write whose token is below the highest token it has accepted. */
class FencedStorage {
  private highest: Token = 0;
  readonly rows: string[] = [];

  write(token: Token, value: string): string {
    if (token < this.highest) return `rejected, token ${token} < ${this.highest}`;
    this.highest = token;
    this.rows.push(value);
    return "accepted";
  }
}

class Holder {
  readonly token: Token;
  lost = false;
  private safeUntil: number;

  constructor(private readonly name: string, private readonly service: LockService) {
    this.token = service.acquire(name) ?? 0;
    this.safeUntil = performance.now() + TTL_MS - DRIFT_MARGIN_MS;
  }

  heartbeat(reachesService: boolean): string {
    if (this.lost) return "lost, no renew";
    const sentAt = performance.now();
    const answer: RenewAnswer = reachesService ? this.service.renew(this.name, this.token) : "TIMEOUT";
    if (answer === "OK") {
      // The safe deadline counts from when the renew was sent, not when it came back.
      this.safeUntil = sentAt + TTL_MS - DRIFT_MARGIN_MS;
      return "renew ok";
    }
    if (answer === "TIMEOUT" && performance.now() < this.safeUntil) {
      return "renew timed out, budget left, retry";
    }
    this.lost = true;
    const reason = answer === "NOT_OWNER" ? "answered NOT_OWNER" : "timed out past its budget";
    return `renew ${reason}: LOST (unlock sent, not awaited)`;
  }
}

const service = new LockService();
const storage = new FencedStorage();
const start = performance.now();
const a = new Holder("A", service);
console.log(`A acquired the lease, token ${a.token} (T = ${TTL_MS} ms, heartbeat every ${HEARTBEAT_MS} ms)`);
for (let beat = 1; beat <= BEATS; beat++) {
  await sleepUntil(start + beat * HEARTBEAT_MS); // after a pause, overdue beats fire at once
  const renew = a.heartbeat(beat < RENEWS_FAIL_FROM_BEAT);
  const value = `a${beat}`;
  if (a.lost) {
    console.log(`beat ${beat}: ${renew}; write ${value} skipped (lost flag set)`);
  } else if (beat === PAUSE_AFTER_BEAT) {
    console.log(`beat ${beat}: ${renew}; write ${value} sent with token ${a.token}`);
    const wakesAt = performance.now() + PAUSE_MS;
    console.log(`A freezes in a ${PAUSE_MS} ms stop-the-world pause; write ${value} is still in flight`);
    await sleepUntil(service.expiresAt);
    const bToken = service.acquire("B") ?? 0;
    console.log(
      `B acquired the lease, token ${bToken}, once A's lease expired; ` +
        `write b1 with token ${bToken} ${storage.write(bToken, "b1")}`,
    );
    await sleepUntil(wakesAt);
    console.log(`A wakes; its in-flight write ${value} lands: ${storage.write(a.token, value)}`);
  } else {
    console.log(`beat ${beat}: ${renew}; write ${value} with token ${a.token} ${storage.write(a.token, value)}`);
  }
}

console.log(`storage holds ${storage.rows.join(" ")}; nothing from A after its lost flag`);
