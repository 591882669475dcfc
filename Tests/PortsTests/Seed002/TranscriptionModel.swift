// swift-format-ignore-file
// (The seed's code is kept exactly as its authors wrote it.)
// Seed 002, step 4, as the tutorial writes it.

import Foundation

struct TranscriptionModel {
    var finalizedText: String = ""
    var currentText: String = ""
    var isRecording: Bool = false
    
    var displayText: String {
        return finalizedText + currentText
    }
}
