// Deliveries per time bucket by outcome, drawn with uPlot on a canvas. Failed attempts are stacked on
// top of the successful ones. The numbers are also given as text (totals, the hovered bucket) and as a
// table, since a canvas says nothing to a screen reader.
import { useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { Empty } from '../../components/status.tsx';
import { formatCount, formatMs } from '../../lib/format.ts';
import type { Timeseries } from '../../types.ts';

const GREEN = '#16a34a';
const RED = '#dc2626';

function bucketLabel(start: number, bucketSeconds: number): string {
  const d = new Date(start * 1000);
  return bucketSeconds >= 86400
    ? d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })
    : d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

function Plot({ series, onHover }: { series: Timeseries; onHover: (i: number | null) => void }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const x = series.buckets.map((b) => b.start);
    const succeeded = series.buckets.map((b) => b.succeeded);
    const total = series.buckets.map((b) => b.succeeded + b.failed);
    const bars = uPlot.paths.bars!({ size: [0.7, 40], radius: 0.15 });
    const opts: uPlot.Options = {
      width: el.clientWidth || 600,
      height: 220,
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { show: false } },
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] } },
      axes: [
        { stroke: '#4b5263', grid: { show: false }, ticks: { stroke: '#d8dce5' } },
        { stroke: '#4b5263', grid: { stroke: '#eef0f4' }, ticks: { show: false }, size: 44 },
      ],
      series: [
        {},
        { label: 'Failed', fill: RED, stroke: RED, width: 0, paths: bars, points: { show: false } },
        { label: 'Succeeded', fill: GREEN, stroke: GREEN, width: 0, paths: bars, points: { show: false } },
      ],
      hooks: { setCursor: [(u) => onHover(u.cursor.idx ?? null)] },
    };
    const plot = new uPlot(opts, [x, total, succeeded], el);
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: 220 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [series, onHover]);
  return <div ref={box} className="chart" aria-hidden="true" />;
}

export function DeliveriesChart({ series }: { series: Timeseries }) {
  const [hovered, setHovered] = useState<number | null>(null);
  const totals = useMemo(
    () =>
      series.buckets.reduce((t, b) => ({ ok: t.ok + b.succeeded, failed: t.failed + b.failed }), {
        ok: 0,
        failed: 0,
      }),
    [series],
  );
  if (totals.ok + totals.failed === 0) return <Empty>No delivery attempts in this window yet.</Empty>;
  const h = hovered === null ? undefined : series.buckets[hovered];
  return (
    <figure className="chart-figure">
      <div className="chart-head">
        <ul className="legend" aria-label="Legend">
          <li>
            <span className="swatch ok" aria-hidden="true" /> Succeeded {formatCount(totals.ok)}
          </li>
          <li>
            <span className="swatch failed" aria-hidden="true" /> Failed {formatCount(totals.failed)}
          </li>
        </ul>
        <p className="chart-readout" aria-live="off">
          {h
            ? `${bucketLabel(h.start, series.bucket_seconds)}: ${h.succeeded} succeeded, ${h.failed} failed, p95 ${formatMs(h.p95_ms)}`
            : 'Hover a bar for its numbers'}
        </p>
      </div>
      <Plot series={series} onHover={setHovered} />
      <figcaption className="visually-hidden">
        Delivery attempts per {series.bucket} by outcome: {totals.ok} succeeded and {totals.failed} failed.
      </figcaption>
      <details className="chart-table">
        <summary>Show the data as a table</summary>
        <table className="table compact">
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col" className="num">
                Succeeded
              </th>
              <th scope="col" className="num">
                Failed
              </th>
              <th scope="col" className="num">
                p50
              </th>
              <th scope="col" className="num">
                p95
              </th>
              <th scope="col" className="num">
                p99
              </th>
            </tr>
          </thead>
          <tbody>
            {series.buckets
              .filter((b) => b.succeeded + b.failed > 0)
              .map((b) => (
                <tr key={b.start}>
                  <td>{bucketLabel(b.start, series.bucket_seconds)}</td>
                  <td className="num">{b.succeeded}</td>
                  <td className="num">{b.failed}</td>
                  <td className="num">{formatMs(b.p50_ms)}</td>
                  <td className="num">{formatMs(b.p95_ms)}</td>
                  <td className="num">{formatMs(b.p99_ms)}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
