import autocannon from 'autocannon';
import { wizardSubmissions } from './client';
const url = process.env.URL!;
const s = await wizardSubmissions(url, `lp${Date.now().toString(36)}`);
const r = await autocannon({ ...s, connections: 50, duration: Number(process.env.SECONDS ?? 10) });
console.log(Math.round(r.requests.average), 'req/s p50', r.latency.p50, 'p99', r.latency.p99, 'non2xx', r.non2xx);
