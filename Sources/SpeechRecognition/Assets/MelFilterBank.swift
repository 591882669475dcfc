import Foundation

/// The mel filter bank Whisper's front end uses: triangular filters on the Slaney mel scale with
/// Slaney area normalisation, over the bins of a 400-point FFT at 16 kHz.
///
/// whisper.cpp reads these filters from its model file; CTranslate2 models do not carry them, so
/// the converter computes them here, in double precision like the reference implementation.
enum MelFilterBank {
  /// `melCount` rows of `fftSize / 2 + 1` weights, row-major.
  static func filters(melCount: Int, fftSize: Int = 400, sampleRate: Double = 16_000) -> [Float] {
    let binCount = fftSize / 2 + 1
    let nyquist = sampleRate / 2
    let fftFrequencies = (0..<binCount).map { nyquist * Double($0) / Double(binCount - 1) }
    let lowMel = hertzToMel(0)
    let highMel = hertzToMel(nyquist)
    let edges = (0..<(melCount + 2)).map { index -> Double in
      melToHertz(lowMel + (highMel - lowMel) * Double(index) / Double(melCount + 1))
    }
    var weights = [Float](repeating: 0, count: melCount * binCount)
    for mel in 0..<melCount {
      let lowerWidth = edges[mel + 1] - edges[mel]
      let upperWidth = edges[mel + 2] - edges[mel + 1]
      let normalisation = 2 / (edges[mel + 2] - edges[mel])
      for bin in 0..<binCount {
        let rising = (fftFrequencies[bin] - edges[mel]) / lowerWidth
        let falling = (edges[mel + 2] - fftFrequencies[bin]) / upperWidth
        weights[mel * binCount + bin] = Float(max(0, min(rising, falling)) * normalisation)
      }
    }
    return weights
  }

  // The Slaney scale: linear below 1 kHz (200/3 Hz per mel), logarithmic above.
  private static let linearStep = 200.0 / 3
  private static let breakHertz = 1000.0
  private static let breakMel = breakHertz / linearStep
  private static let logStep = log(6.4) / 27

  static func hertzToMel(_ hertz: Double) -> Double {
    hertz >= breakHertz ? breakMel + log(hertz / breakHertz) / logStep : hertz / linearStep
  }

  static func melToHertz(_ mel: Double) -> Double {
    mel >= breakMel ? breakHertz * exp(logStep * (mel - breakMel)) : mel * linearStep
  }
}
