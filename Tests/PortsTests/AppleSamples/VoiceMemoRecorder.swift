// The shape voice-memo tutorials give a recorder: an observable model that records the
// microphone with AVAudioRecorder from a settings dictionary, lists its memos when the
// recorder's delegate hears a recording finish, and plays one back with AVAudioPlayer. Our own
// code in that shape; only the import differs (AVFoundation -> AudioIO).

import AudioIO
import Foundation
import Observation

@Observable
final class VoiceMemoRecorder: NSObject, AVAudioRecorderDelegate, AVAudioPlayerDelegate {
  var isRecording = false
  var isPlaying = false
  var memos: [URL] = []
  var failure: String?

  private let folder: URL
  private var audioRecorder: AVAudioRecorder?
  private var audioPlayer: AVAudioPlayer?

  init(folder: URL) {
    self.folder = folder
  }

  func startRecording() {
    let session = AVAudioSession.sharedInstance()
    do {
      try session.setCategory(.playAndRecord, mode: .default)
      try session.setActive(true)
      let url = folder.appendingPathComponent("Memo \(memos.count + 1).m4a")
      let settings = [
        AVFormatIDKey: Int(kAudioFormatMPEG4AAC),
        AVSampleRateKey: 12000,
        AVNumberOfChannelsKey: 1,
        AVEncoderAudioQualityKey: AVAudioQuality.high.rawValue,
      ]
      audioRecorder = try AVAudioRecorder(url: url, settings: settings)
      audioRecorder?.delegate = self
      audioRecorder?.record()
      isRecording = true
    } catch {
      failure = "Could not start recording: \(error.localizedDescription)"
    }
  }

  /// Seconds recorded so far, for the screen's timer.
  var elapsed: TimeInterval { audioRecorder?.currentTime ?? 0 }

  func stopRecording() {
    audioRecorder?.stop()
    isRecording = false
  }

  func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool) {
    if flag {
      memos.append(recorder.url)
    } else {
      failure = "The recording stopped early."
    }
  }

  func play(_ memo: URL) {
    do {
      audioPlayer = try AVAudioPlayer(contentsOf: memo)
      audioPlayer?.delegate = self
      audioPlayer?.play()
      isPlaying = true
    } catch {
      failure = "Could not play \(memo.lastPathComponent): \(error.localizedDescription)"
    }
  }

  /// The playing memo's length.
  var playingDuration: TimeInterval { audioPlayer?.duration ?? 0 }

  /// A memo's length, for the list, without decoding it.
  func duration(of memo: URL) async -> TimeInterval {
    let asset = AVURLAsset(url: memo)
    guard let duration = try? await asset.load(.duration) else { return 0 }
    return CMTimeGetSeconds(duration)
  }

  func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {
    isPlaying = false
  }
}
