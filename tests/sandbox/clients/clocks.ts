function start(node: any) {
  const T = (globalThis as any).Temporal;
  const utc = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", timeStyle: "medium" });
  console.log(T.Now.instant().epochMilliseconds, T.Now.plainDateTimeISO("UTC").toString(), performance.timeOrigin + performance.now(), utc.format());
}
