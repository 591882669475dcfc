import Foundation

/// Plays audio faster or slower without changing its pitch, by waveform-similarity overlap-add
/// (WSOLA): 20 ms frames are taken from the input every `rate` × 10 ms, each moved by up to 5 ms to
/// where it continues the frame before most smoothly, and added up with Hann windows every 10 ms.
///
/// Speech keeps its voice at half to twice its speed. The output is made a hop (10 ms) at a time,
/// so a player can stretch while it plays.
struct TimeStretcher {
  /// Input frames advanced per output frame.
  let rate: Double
  private let channels: Int
  /// Frames in a window, between windows in the output, and of search either side.
  private let frame: Int
  private let hop: Int
  private let tolerance: Int
  private let window: [Float]
  /// Where the next window ideally starts in the input, in frames.
  private var ideal: Double
  /// Where the last window taken starts, once one has been.
  private var previous: Int?
  /// The windows added so far that have not been handed out yet: `frame` frames, interleaved.
  private var pending: [Float]
  /// Whether the last window's second half has been handed out, after the input ran out.
  private var flushed = false

  /// A stretcher at `rate` (0.5 to 2) for audio of `format`, starting at input frame `start`.
  init(rate: Double, format: AudioFormat, from start: Int) {
    self.rate = min(max(rate, 0.5), 2)
    channels = format.channels
    let hop = max(2, Int(format.sampleRate / 100))
    self.hop = hop
    frame = 2 * hop
    tolerance = hop / 2
    // A periodic Hann window: two of them half a window apart add up to one.
    window = (0..<(2 * hop)).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(2 * hop))) }
    ideal = Double(start)
    pending = [Float](repeating: 0, count: 2 * hop * format.channels)
  }

  /// Where in the input the audio handed out next comes from, in frames.
  var position: Int { Int(ideal) }

  /// The next 10 ms of output from `audio` (the whole input), or nil once the input is used up
  /// and the last window's end handed out. Windows past the input's end read silence there.
  mutating func next(from audio: AudioBuffer) -> [Float]? {
    let length = audio.frameLength
    let start = Int(ideal.rounded())
    guard start < length else {
      guard !flushed else { return nil }
      flushed = true
      return Array(pending[0..<(hop * channels)])
    }
    var chosen = start
    if let previous, start + frame + tolerance <= length {
      // The input that would follow the last window, matched against the candidates' openings.
      let natural = previous + hop
      if natural + hop <= length {
        let lower = max(0, start - tolerance)
        let upper = start + tolerance
        var best = -Float.infinity
        for candidate in lower...upper {
          let score = similarity(audio.samples, natural, candidate)
          if score > best {
            best = score
            chosen = candidate
          }
        }
      }
    }
    for offset in 0..<min(frame, length - chosen) {
      let weight = window[offset]
      for channel in 0..<channels {
        pending[offset * channels + channel] += weight * audio.samples[(chosen + offset) * channels + channel]
      }
    }
    let out = Array(pending[0..<(hop * channels)])
    pending.removeFirst(hop * channels)
    pending += [Float](repeating: 0, count: hop * channels)
    previous = chosen
    ideal += Double(hop) * rate
    return out
  }

  /// How alike the `hop` frames at `first` and at `second` are (their channels summed).
  private func similarity(_ samples: [Float], _ first: Int, _ second: Int) -> Float {
    var sum: Float = 0
    samples.withUnsafeBufferPointer { x in
      for offset in 0..<hop {
        var a: Float = 0
        var b: Float = 0
        for channel in 0..<channels {
          a += x[(first + offset) * channels + channel]
          b += x[(second + offset) * channels + channel]
        }
        sum += a * b
      }
    }
    return sum
  }
}
