/** Per-instance Prometheus counters (each instance is scraped on its own). */
export function createMetrics() {
  const requests = new Map<string, number>();
  const durations = { count: 0, sumSeconds: 0 };
  const startedAt = Date.now();
  return {
    observe(method: string, status: number, seconds: number) {
      const key = `method="${method}",status="${Math.floor(status / 100)}xx"`;
      requests.set(key, (requests.get(key) ?? 0) + 1);
      durations.count += 1;
      durations.sumSeconds += seconds;
    },
    render(): string {
      const lines = [
        '# HELP cometa_http_requests_total HTTP requests answered, by method and status class.',
        '# TYPE cometa_http_requests_total counter',
        ...[...requests].map(([k, v]) => `cometa_http_requests_total{${k}} ${v}`),
        '# HELP cometa_http_request_duration_seconds Time spent answering HTTP requests.',
        '# TYPE cometa_http_request_duration_seconds summary',
        `cometa_http_request_duration_seconds_count ${durations.count}`,
        `cometa_http_request_duration_seconds_sum ${durations.sumSeconds.toFixed(6)}`,
        '# HELP cometa_process_uptime_seconds Seconds since this instance started.',
        '# TYPE cometa_process_uptime_seconds gauge',
        `cometa_process_uptime_seconds ${((Date.now() - startedAt) / 1000).toFixed(0)}`,
      ];
      return `${lines.join('\n')}\n`;
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
