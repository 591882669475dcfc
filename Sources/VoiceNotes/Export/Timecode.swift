/// Formats seconds as `hh:mm:ss.mmm` (or `mm:ss.mmm`) for transcripts and subtitles.
enum Timecode {
  static func string(_ seconds: Double, separator: String, alwaysHours: Bool = false) -> String {
    let milliseconds = Int((max(seconds, 0) * 1000).rounded())
    let hours = milliseconds / 3_600_000
    let minutes = milliseconds / 60_000 % 60
    let secs = milliseconds / 1000 % 60
    let millis = milliseconds % 1000
    func pad(_ value: Int, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    let tail = "\(pad(minutes, 2)):\(pad(secs, 2))\(separator)\(pad(millis, 3))"
    return alwaysHours || hours > 0 ? "\(pad(hours, 2)):\(tail)" : tail
  }
}
