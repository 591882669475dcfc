// Runs on the audio rendering thread: collects the microphone's samples (mono Float32)
// and posts them to the page in blocks. A {type: 'flush'} message posts what is left,
// then {type: 'flushed'}.

const BLOCK = 2048;

class PcmCaptureProcessor extends AudioWorkletProcessor {
  constructor() {
    super();
    this.block = new Float32Array(BLOCK);
    this.length = 0;
    this.port.onmessage = (event) => {
      if (event.data && event.data.type === 'flush') {
        this.post();
        this.port.postMessage({ type: 'flushed' });
      }
    };
  }

  post() {
    if (this.length === 0) return;
    const samples = this.block.slice(0, this.length);
    this.port.postMessage({ type: 'pcm', samples }, [samples.buffer]);
    this.length = 0;
  }

  process(inputs) {
    const input = inputs[0];
    if (!input || input.length === 0) return true;
    const frames = input[0].length;
    for (let i = 0; i < frames; i += 1) {
      let sample = 0;
      for (let c = 0; c < input.length; c += 1) sample += input[c][i];
      this.block[this.length] = sample / input.length;
      this.length += 1;
      if (this.length === BLOCK) this.post();
    }
    return true;
  }
}

registerProcessor('pcm-capture', PcmCaptureProcessor);
