/** Per-instance Prometheus counters (each instance is scraped on its own). */
export function createMetrics() {
  const requests = new Map<string, number>();
  const durations = { count: 0, sumSeconds: 0 };
  const supplierCalls = new Map<string, number>();
  const supplierLatency = new Map<string, { count: number; sumSeconds: number }>();
  const startedAt = Date.now();
  return {
    observe(method: string, status: number, seconds: number) {
      const key = `method="${method}",status="${Math.floor(status / 100)}xx"`;
      requests.set(key, (requests.get(key) ?? 0) + 1);
      durations.count += 1;
      durations.sumSeconds += seconds;
    },
    /** One call to a supplier: `outcome` is ok or the failure kind (refused-order, ambiguous…). */
    observeSupplier(supplier: string, action: string, outcome: string, seconds: number) {
      const who = `supplier="${label(supplier)}"`;
      const key = `${who},action="${label(action)}",outcome="${label(outcome)}"`;
      supplierCalls.set(key, (supplierCalls.get(key) ?? 0) + 1);
      const latency = supplierLatency.get(who) ?? { count: 0, sumSeconds: 0 };
      latency.count += 1;
      latency.sumSeconds += seconds;
      supplierLatency.set(who, latency);
    },
    /** `gauges`: values read at scrape time (queue depth), already as Prometheus lines. */
    render(gauges: string[] = []): string {
      const lines = [
        '# HELP cometa_http_requests_total HTTP requests answered, by method and status class.',
        '# TYPE cometa_http_requests_total counter',
        ...[...requests].map(([k, v]) => `cometa_http_requests_total{${k}} ${v}`),
        '# HELP cometa_http_request_duration_seconds Time spent answering HTTP requests.',
        '# TYPE cometa_http_request_duration_seconds summary',
        `cometa_http_request_duration_seconds_count ${durations.count}`,
        `cometa_http_request_duration_seconds_sum ${durations.sumSeconds.toFixed(6)}`,
        '# HELP cometa_supplier_requests_total Calls to suppliers, by supplier, action and outcome (ok or the kind of failure).',
        '# TYPE cometa_supplier_requests_total counter',
        ...[...supplierCalls].map(([k, v]) => `cometa_supplier_requests_total{${k}} ${v}`),
        '# HELP cometa_supplier_request_duration_seconds Time suppliers took to answer.',
        '# TYPE cometa_supplier_request_duration_seconds summary',
        ...[...supplierLatency].flatMap(([k, v]) => [
          `cometa_supplier_request_duration_seconds_count{${k}} ${v.count}`,
          `cometa_supplier_request_duration_seconds_sum{${k}} ${v.sumSeconds.toFixed(6)}`,
        ]),
        ...gauges,
        '# HELP cometa_process_uptime_seconds Seconds since this instance started.',
        '# TYPE cometa_process_uptime_seconds gauge',
        `cometa_process_uptime_seconds ${((Date.now() - startedAt) / 1000).toFixed(0)}`,
      ];
      return `${lines.join('\n')}\n`;
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;

/** A label value as Prometheus' text format wants it. */
function label(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}
