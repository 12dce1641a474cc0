//! Positions: LSP counts lines and UTF-16 code units, the validator byte offsets and 1-based
//! lines and columns (in characters). One index per document version converts between them.

use lsp_types::{Position, Range};

/// The byte offset of each line start of a text.
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                starts.push(i + 1);
            }
        }
        LineIndex { text, starts }
    }

    /// The LSP position of a byte offset (clamped to the text, and to a char boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|s| *s <= offset) - 1;
        let col = self.text[self.starts[line]..offset].encode_utf16().count();
        Position::new(line as u32, col as u32)
    }

    pub fn range(&self, span: std::ops::Range<usize>) -> Range {
        Range::new(self.position(span.start), self.position(span.end))
    }

    /// The byte offset of an LSP position (past the end of a line: its end).
    pub fn offset(&self, pos: Position) -> usize {
        let Some(start) = self.starts.get(pos.line as usize).copied() else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(pos.line as usize + 1)
            .map_or(self.text.len(), |e| e.saturating_sub(1));
        let mut units = 0;
        for (i, c) in self.text[start..end].char_indices() {
            if units >= pos.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }

    /// The byte offset of a 1-based line and character column (the validator's).
    pub fn offset_of_line_col(&self, line: usize, column: usize) -> usize {
        let Some(start) = self.starts.get(line.saturating_sub(1)).copied() else {
            return self.text.len();
        };
        self.text[start..]
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(self.text.len(), |(i, _)| start + i)
    }

    /// The whole text's range.
    pub fn all(&self) -> Range {
        Range::new(Position::new(0, 0), self.position(self.text.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_columns_and_back() {
        let text = "{\n  \"名\": 1, \"😀x\": 2\n}";
        let idx = LineIndex::new(text);
        let x = text.find('x').unwrap();
        // `  "名": 1, "😀` is 11 characters, 13 UTF-16 units (😀 takes two).
        assert_eq!(idx.position(x), Position::new(1, 13));
        assert_eq!(idx.offset(Position::new(1, 13)), x);
        assert_eq!(idx.offset(Position::new(1, 999)), text.rfind('\n').unwrap());
        assert_eq!(idx.offset(Position::new(9, 0)), text.len());
        assert_eq!(idx.offset_of_line_col(2, 3), text.find('"').unwrap());
    }
}
