// The baseline of the API benchmark: a bare Fastify JSON route, nothing else.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/json', async () => ({ code: 200, success: true, data: { hello: 'world' }, msg: '操作成功' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
