// ONNX Runtime's latency of an ONNX file on its CPU provider, for bench/model_bench: all graph
// optimizations, THREADS intra-op threads, one inter-op thread; random float inputs of SHAPE.
// Prints `ort_ms=<median> version=<onnxruntime version>`.
//
// Usage: node bench/support/ort_latency.js MODEL.onnx N,C,H,W THREADS
//   (onnxruntime-node from npm, found through NODE_PATH: bench/setup-onnxruntime.sh)
const ort = require('onnxruntime-node');

async function main() {
  const [model, shapeText, threadsText] = process.argv.slice(2);
  const shape = shapeText.split(',').map(Number);
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: Number(threadsText),
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
  });
  const count = shape.reduce((a, b) => a * b, 1);
  const data = Float32Array.from({length: count}, () => Math.random() * 2 - 1);
  const feeds = {[session.inputNames[0]]: new ort.Tensor('float32', data, shape)};
  for (let i = 0; i < 3; ++i) await session.run(feeds);
  const times = [];
  const deadline = performance.now() + 2000;
  while (times.length < 10 || (performance.now() < deadline && times.length < 200)) {
    const start = performance.now();
    await session.run(feeds);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const version = require('onnxruntime-node/package.json').version;
  console.log(`ort_ms=${times[Math.floor(times.length / 2)].toFixed(3)} version=${version}`);
}

main().catch((e) => {
  console.log(`error=${String(e.message || e).split('\n')[0]}`);
  process.exit(1);
});
