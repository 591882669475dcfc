/// Where to cut a recording too long for one request to a transcription server: at pauses that
/// voice-activity detection found, so no word is cut in two and no piece is longer than the limit.
struct TranscriptionChunkPlan: Sendable, Equatable {
  /// The pieces, as sample ranges of the recording, in order; together they cover every stretch
  /// with speech (long pauses between them, and pieces with no speech at all, are left out).
  var pieces: [Range<Int>]

  /// Plans pieces of at most `limit` samples for a recording of `sampleCount` samples, given the
  /// probability of speech in each window of `windowSize` samples.
  ///
  /// Each cut is made in the middle of the longest pause (a run of windows whose probability is
  /// below `threshold`) in the second half of the stretch that could still go into the piece, so
  /// pieces stay long and cuts fall in silence; with no pause there, at the quietest window. Of a
  /// long pause only `padding` windows stay on either side of the cut: the silence in between is
  /// not sent, and the next piece starts shortly before its speech (Whisper places the first
  /// words of a piece that opens with seconds of silence too early).
  ///
  /// - Precondition: `limit` is at least two windows.
  init(
    sampleCount: Int, limit: Int, speechProbabilities: [Float], windowSize: Int, threshold: Float = 0.5,
    padding: Int = 10
  ) {
    precondition(limit >= 2 * windowSize, "a piece must hold at least two voice-activity windows")
    func probability(_ window: Int) -> Float {
      speechProbabilities.indices.contains(window) ? speechProbabilities[window] : 0
    }
    // Each cut as where one piece ends and the next starts (apart when silence is left out).
    var cuts: [(end: Int, next: Int)] = []
    var start = 0
    while sampleCount - start > limit {
      let cut = Self.cut(
        from: start, limit: limit, windowSize: windowSize, threshold: threshold, padding: padding,
        probability: probability)
      cuts.append(cut)
      start = cut.next
    }
    var pieces: [Range<Int>] = []
    var previous = 0
    for cut in cuts + [(sampleCount, sampleCount)] {
      pieces.append(previous..<cut.end)
      previous = cut.next
    }
    self.pieces = pieces.filter { piece in
      let windows = (piece.lowerBound / windowSize)..<max((piece.upperBound + windowSize - 1) / windowSize, 1)
      return windows.contains { probability($0) >= threshold }
    }
  }

  /// Where to end the piece that starts at sample `start` and may hold at most `limit` samples,
  /// and where the next piece starts: in the longest pause of the piece's second half (see
  /// ``init(sampleCount:limit:speechProbabilities:windowSize:threshold:padding:)``), given the
  /// probability of speech in each window of `windowSize` samples. Both are multiples of
  /// `windowSize` when `start` and `limit` are.
  static func cut(
    from start: Int, limit: Int, windowSize: Int, threshold: Float = 0.5, padding: Int = 10,
    probability: (Int) -> Float
  ) -> (end: Int, next: Int) {
    // Windows wholly inside the second half of what could go into this piece.
    let first = (start + limit / 2 + windowSize - 1) / windowSize
    let last = (start + limit) / windowSize - 1
    var best: (start: Int, length: Int)?
    var run: Int?
    for window in first...max(first, last) {
      if probability(window) < threshold {
        let runStart = run ?? window
        run = runStart
        let length = window - runStart + 1
        if length >= (best?.length ?? 0) { best = (runStart, length) }
      } else {
        run = nil
      }
    }
    if let best {
      let middle = best.start + best.length / 2
      let end = min(best.start + padding, middle) * windowSize
      let next = max(best.start + best.length - padding, middle) * windowSize
      return (min(max(end, start + windowSize), start + limit), max(next, start + windowSize))
    }
    let quietest = (first...max(first, last)).min { probability($0) < probability($1) } ?? last
    let at = min(max(quietest * windowSize, start + windowSize), start + limit)
    return (at, at)
  }
}
