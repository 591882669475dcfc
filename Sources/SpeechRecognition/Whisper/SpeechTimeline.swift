/// Joins the speech regions of a recording into one shorter signal and maps times back.
///
/// Voice-activity detection finds where people speak; decoding only those stretches saves time
/// and stops Whisper inventing words in silence. Whisper then reports times in the shortened
/// signal, and ``originalTime(_:)`` turns them into times in the recording. The joined signal
/// starts with a moment of silence: Whisper often drops or mishears a first word that begins at
/// the very first sample.
struct SpeechTimeline: Sendable, Equatable {
  /// One kept stretch: where it lies in the recording and where it starts in the joined signal.
  struct Piece: Sendable, Equatable {
    var original: Range<Int>
    var joinedStart: Int
  }

  let pieces: [Piece]
  let sampleRate: Double
  /// Silence inserted between kept stretches, in samples, so words do not run together.
  let gap: Int
  /// Silence before the first stretch, in samples.
  let leadIn: Int

  /// Plans the joined signal for `regions` (sample ranges of speech) in a recording of
  /// `sampleCount` samples. Regions are clamped, sorted and merged where they overlap.
  init(
    regions: [Range<Int>], sampleCount: Int, sampleRate: Double, gapSeconds: Double = 0.1, leadInSeconds: Double = 0.5
  ) {
    self.sampleRate = sampleRate
    gap = Int(gapSeconds * sampleRate)
    leadIn = Int(leadInSeconds * sampleRate)
    var merged: [Range<Int>] = []
    for region in regions.map({ $0.clamped(to: 0..<sampleCount) }).filter({ !$0.isEmpty })
      .sorted(by: { $0.lowerBound < $1.lowerBound })
    {
      if let last = merged.last, region.lowerBound <= last.upperBound + gap {
        merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, region.upperBound)
      } else {
        merged.append(region)
      }
    }
    var position = leadIn
    var pieces: [Piece] = []
    for region in merged {
      pieces.append(Piece(original: region, joinedStart: position))
      position += region.count + gap
    }
    self.pieces = pieces
  }

  /// The whole of a recording of `sampleCount` samples, with only the lead-in added.
  static func whole(sampleCount: Int, sampleRate: Double) -> SpeechTimeline {
    SpeechTimeline(regions: [0..<sampleCount], sampleCount: sampleCount, sampleRate: sampleRate)
  }

  /// The joined signal: a lead-in of silence, then each kept stretch of `samples`, separated by silence.
  func join(_ samples: [Float]) -> [Float] {
    var joined: [Float] = []
    joined.reserveCapacity(pieces.reduce(leadIn) { $0 + $1.original.count + gap })
    joined.append(contentsOf: repeatElement(0, count: leadIn))
    for (index, piece) in pieces.enumerated() {
      if index > 0 { joined.append(contentsOf: repeatElement(0, count: gap)) }
      joined.append(contentsOf: samples[piece.original])
    }
    return joined
  }

  /// The time in the recording that corresponds to `seconds` in the joined signal. Times in an
  /// inserted gap map to the end of the stretch before it; times in the lead-in, to the start of
  /// the first stretch.
  func originalTime(_ seconds: Double) -> Double {
    guard let first = pieces.first else { return seconds }
    let sample = Int((seconds * sampleRate).rounded())
    var piece = first
    for candidate in pieces where candidate.joinedStart <= sample { piece = candidate }
    let offset = min(max(sample - piece.joinedStart, 0), piece.original.count)
    return Double(piece.original.lowerBound + offset) / sampleRate
  }
}
