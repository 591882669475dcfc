import Foundation

/// Dates as text, formatted by hand: a `DateFormatter` costs about a tenth of a millisecond to
/// make on Linux, and lists format a date for every note they show.
public enum CalendarText {
  /// The calendar fields of `date`, in the machine's time zone or in UTC.
  static func fields(of date: Date, utc: Bool = false) -> tm {
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var fields = tm()
    if utc { gmtime_r(&seconds, &fields) } else { localtime_r(&seconds, &fields) }
    return fields
  }

  /// `7` as `07`.
  static func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }

  /// `2026-12-01 09:30`, in the machine's time zone.
  public static func minutes(_ date: Date) -> String {
    let f = fields(of: date)
    return "\(f.tm_year + 1900)-\(twoDigits(f.tm_mon + 1))-\(twoDigits(f.tm_mday)) "
      + "\(twoDigits(f.tm_hour)):\(twoDigits(f.tm_min))"
  }

  /// `1 Dec 2026 at 09:30`, in the machine's time zone.
  public static func spoken(_ date: Date) -> String {
    let f = fields(of: date)
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    return "\(f.tm_mday) \(months[Int(f.tm_mon)]) \(f.tm_year + 1900) at \(twoDigits(f.tm_hour)):\(twoDigits(f.tm_min))"
  }

  /// `2026-12-01T09:30:00Z`: ISO 8601 in UTC, to the second.
  public static func iso8601(_ date: Date) -> String {
    let f = fields(of: date, utc: true)
    return "\(f.tm_year + 1900)-\(twoDigits(f.tm_mon + 1))-\(twoDigits(f.tm_mday))T"
      + "\(twoDigits(f.tm_hour)):\(twoDigits(f.tm_min)):\(twoDigits(f.tm_sec))Z"
  }
}
