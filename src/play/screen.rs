//! `dotc play`'s terminal screen: the game's heading, the actions the rules allow (pick one
//! with the arrow keys and Enter, or type its number), what the assistant says (odds, the
//! narrative of each line written), and the input line, which takes the same commands and
//! dice as the line prompt. Everything it does goes through [`super::Assistant`].

use ratatui::Frame;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Direction, Layout};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, List, ListItem, ListState, Paragraph};

use super::Assistant;

/// How many lines of what the assistant said are kept to scroll back through.
const KEPT: usize = 2000;

/// The screen's state between two keys.
pub struct Screen {
    pub assistant: Assistant,
    /// What the assistant said, oldest first.
    said: Vec<String>,
    /// The input line being typed.
    input: String,
    /// The action of the list under the cursor.
    selected: usize,
    /// Lines scrolled back from the newest.
    back: usize,
}

impl Screen {
    pub fn new(assistant: Assistant, opening: Vec<String>) -> Screen {
        let mut screen = Screen { assistant, said: Vec::new(), input: String::new(), selected: 0, back: 0 };
        screen.say(opening);
        screen
    }

    fn say(&mut self, lines: Vec<String>) {
        self.said.extend(lines);
        if self.said.len() > KEPT {
            self.said.drain(..self.said.len() - KEPT);
        }
        self.back = 0;
        self.selected = self.selected.min(self.assistant.candidates.len().saturating_sub(1));
    }

    /// Submit a line of input, as if typed and Enter pressed.
    fn submit(&mut self, line: String) {
        let echo = format!("{}{line}", self.assistant.asking());
        let answer = self.assistant.feed(&line);
        self.say(std::iter::once(echo).chain(answer).collect());
    }

    /// Take one key. False once the player has quit.
    pub fn key(&mut self, key: KeyEvent) -> bool {
        if key.kind != KeyEventKind::Press {
            return true;
        }
        let waiting_for_dice = self.assistant.asking() != "> ";
        match key.code {
            KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => return false,
            KeyCode::Char(c) => self.input.push(c),
            KeyCode::Backspace => {
                self.input.pop();
            }
            KeyCode::Esc if waiting_for_dice => self.submit("cancel".to_string()),
            KeyCode::Esc => self.input.clear(),
            KeyCode::Up => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down => {
                self.selected = (self.selected + 1).min(self.assistant.candidates.len().saturating_sub(1))
            }
            // The map of the moment, one key away.
            KeyCode::F(2) => self.submit("map".to_string()),
            KeyCode::PageUp => self.back = (self.back + 10).min(self.said.len()),
            KeyCode::PageDown => self.back = self.back.saturating_sub(10),
            KeyCode::Enter => {
                let typed = std::mem::take(&mut self.input);
                // Enter on an empty command line takes the action under the cursor.
                let line = if typed.trim().is_empty()
                    && !waiting_for_dice
                    && !self.assistant.candidates.is_empty()
                {
                    (self.selected + 1).to_string()
                } else {
                    typed
                };
                self.submit(line);
            }
            _ => {}
        }
        !self.assistant.done
    }

    /// Draw the whole screen.
    pub fn draw(&self, frame: &mut Frame) {
        let rows = Layout::default()
            .direction(Direction::Vertical)
            .constraints([Constraint::Length(1), Constraint::Min(6), Constraint::Length(3)])
            .split(frame.area());
        let path = self
            .assistant
            .session
            .path
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        let heading = Line::from(vec![
            Span::styled(self.assistant.heading(), Style::default().add_modifier(Modifier::BOLD)),
            Span::raw(format!("   {path}   Enter take · ↑↓ choose · Esc cancel · F2 map · `help`")),
        ]);
        frame.render_widget(Paragraph::new(heading), rows[0]);
        let columns = Layout::default()
            .direction(Direction::Horizontal)
            .constraints([Constraint::Percentage(45), Constraint::Percentage(55)])
            .split(rows[1]);
        let items: Vec<ListItem> = self
            .assistant
            .candidates
            .iter()
            .enumerate()
            .map(|(i, c)| ListItem::new(format!("{:>2} {}", i + 1, super::shown(c))))
            .collect();
        let list = List::new(items)
            .block(Block::default().borders(Borders::ALL).title(" What the rules allow "))
            .highlight_style(Style::default().add_modifier(Modifier::REVERSED))
            .highlight_symbol("▶");
        let mut state = ListState::default();
        if !self.assistant.candidates.is_empty() {
            state.select(Some(self.selected));
        }
        frame.render_stateful_widget(list, columns[0], &mut state);
        // The newest lines that fit, or those scrolled back to, each folded to the panel's width.
        let height = usize::from(columns[1].height.saturating_sub(2));
        let width = usize::from(columns[1].width.saturating_sub(2)).max(1);
        let end = self.said.len().saturating_sub(self.back);
        let mut rows_shown: Vec<String> = Vec::new();
        for line in self.said[..end].iter().rev() {
            let chars: Vec<char> = line.chars().collect();
            let folded: Vec<String> = if chars.is_empty() {
                vec![String::new()]
            } else {
                chars.chunks(width).map(|c| c.iter().collect()).collect()
            };
            rows_shown.splice(0..0, folded);
            if rows_shown.len() >= height {
                break;
            }
        }
        let skip = rows_shown.len().saturating_sub(height);
        let said: Vec<Line> = rows_shown.into_iter().skip(skip).map(Line::raw).collect();
        let table = Paragraph::new(said).block(Block::default().borders(Borders::ALL).title(" The game "));
        frame.render_widget(table, columns[1]);
        let input = Paragraph::new(format!("{}{}", self.assistant.asking(), self.input))
            .block(Block::default().borders(Borders::ALL).title(" Type a command, a log line or the dice "));
        frame.render_widget(input, rows[2]);
    }
}

/// Run the screen on the terminal until the player quits.
pub fn run_terminal(assistant: Assistant, opening: Vec<String>) -> std::io::Result<()> {
    let mut terminal = ratatui::init();
    let mut screen = Screen::new(assistant, opening);
    let result = (|| loop {
        terminal.draw(|frame| screen.draw(frame))?;
        if let Event::Key(key) = event::read()?
            && !screen.key(key)
        {
            return Ok(());
        }
    })();
    ratatui::restore();
    result
}

#[cfg(test)]
#[path = "screen_tests.rs"]
mod tests;
