/* wordsalvo core: shared constants, status codes and conventions.
 *
 * Conventions (one place, used by every C file and mirrored in Cython):
 *  - Tile codes: 0 = blank on a rack / GADDAG separator in a graph; letters 1..32.
 *    On a board, a blank standing for letter L is (L | WS_BLANK_BIT).
 *  - Squares: row-major index row*15 + col.  Direction 0 = across (lanes are rows),
 *    direction 1 = down (lanes are columns).  Per-direction arrays are
 *    lane-major: index lane*15 + pos, so the down generator runs the SAME code on
 *    the transposed board.
 *  - Cross sets: uint64 with bit L set when letter L may be placed on the square
 *    (the perpendicular word it forms is in the lexicon).  Bit 0 = the square has a
 *    perpendicular word (it is never a letter, so a rack mask never matches it).
 *    A square without perpendicular neighbours allows every letter.
 *  - The cross score of a square is the face value of the perpendicular tiles
 *    (blanks count 0); it is about the perpendicular axis of the SAME direction.
 */
#ifndef WS_DEFS_H
#define WS_DEFS_H

#include <stddef.h>
#include <stdint.h>

#define WS_DIM 15
#define WS_SQUARES (WS_DIM * WS_DIM)
#define WS_MAX_LETTERS 32
#define WS_MIN_WORD 2
#define WS_MAX_WORD 15
#define WS_BLANK_BIT 0x80u
#define WS_LETTER_MASK 0x7Fu
#define WS_RACK_MAX 7

/* status codes: 0 = ok, negative = error */
#define WS_OK 0
#define WS_E_NOMEM (-1)
#define WS_E_CAPACITY (-2)
#define WS_E_FORMAT (-3)
#define WS_E_TOO_BIG (-4)
#define WS_E_ARGUMENT (-5)
/* An argument refused, with its reason: WS_E_ARGUMENT says only "refused"; each code
 * below it names one condition, so a caller can say why without checking again
 * (wordsalvo/_core/status.pxi words each one).  WS_REFUSED(rc): any of them. */
#define WS_REFUSED(rc) ((rc) <= WS_E_ARGUMENT)
/* the game is over: no turn can be taken */
#define WS_E_GAME_OVER (-10)
/* a move of 1..15 squares that does not fit on the board */
#define WS_E_OFF_BOARD (-11)
/* a new tile on a square that holds one */
#define WS_E_SQUARE_TAKEN (-12)
/* a tile code outside the alphabet */
#define WS_E_TILE_CODE (-13)
/* tiles the rack does not hold */
#define WS_E_NOT_ON_RACK (-14)
/* a move that places no tile */
#define WS_E_NO_TILE (-15)
/* more tiles than a bag holds (WS_GAME_MAX_BAG) */
#define WS_E_BAG_FULL (-16)
/* more tiles than a rack holds */
#define WS_E_RACK_FULL (-17)
/* the bag cannot make the first deal's vowels and consonants */
#define WS_E_FIRST_DEAL (-18)
/* a player out of range, or one who has left the game */
#define WS_E_PLAYER (-19)
/* a number of players this call cannot take */
#define WS_E_PLAYERS (-20)
/* a rule value out of its range */
#define WS_E_RULE_VALUE (-21)
/* a rack the leave table cannot value */
#define WS_E_LEAVE (-22)
/* rules with no pass or scoreless-turn limit: a game might never end */
#define WS_E_ENDLESS (-23)
/* rules that let a player swap with an empty bag */
#define WS_E_EMPTY_BAG_SWAP (-24)
/* an end-game search with tiles in the bag */
#define WS_E_BAG_NOT_EMPTY (-25)
/* a game that did not end within its turn limit */
#define WS_E_TURN_LIMIT (-26)
/* a swap the rules refuse now: WS_E_SWAP_BASE - the WS_SWAP_* problem (ws_game.h), -31..-35 */
#define WS_E_SWAP_BASE (-30)

/* word-list line status, shared with wordsalvo/alphabet.py LINE_* */
#define WS_LINE_OK 0
#define WS_LINE_EMPTY 1
#define WS_LINE_DIGIT 2
#define WS_LINE_APOSTROPHE 3
#define WS_LINE_HYPHEN 4
#define WS_LINE_DOT 5
#define WS_LINE_SPACE 6
#define WS_LINE_OTHER_CHARACTER 7
#define WS_LINE_TOO_SHORT 8
#define WS_LINE_TOO_LONG 9
#define WS_LINE_DUPLICATE 10
#define WS_LINE_BAD_UTF8 11
#define WS_LINE_COMMENT 12

/* Graph nodes: one uint32 per arc.
 *   bits 0-23  index of the first arc of the child list (0 = no children)
 *   bit  24    last arc of its sibling list
 *   bit  25    taking this arc completes a word
 *   bits 26-31 tile (0 = GADDAG separator, 1..32 letters)
 * Entry 0 points to the DAWG root list, entry 1 to the GADDAG root list. */
#define WS_NODE_INDEX_MASK 0x00FFFFFFu
#define WS_NODE_END 0x01000000u
#define WS_NODE_ACCEPTS 0x02000000u
#define WS_NODE_TILE_SHIFT 26
#define WS_MAX_NODES 0x01000000u

/* graph validation problems (ws_graph_validate) */
#define WS_GRAPH_OK 0
#define WS_GRAPH_TOO_SMALL 1
#define WS_GRAPH_BAD_ROOT 2
#define WS_GRAPH_INDEX_RANGE 3
#define WS_GRAPH_TILE_RANGE 4
#define WS_GRAPH_ORDER 5
#define WS_GRAPH_NO_END 6
#define WS_GRAPH_SEPARATOR 7
#define WS_GRAPH_DEAD_ARC 8
/* word-level problems (ws_graph_count, ws_graph_cross_check) */
#define WS_GRAPH_CYCLE 9
#define WS_GRAPH_TOO_DEEP 10
#define WS_GRAPH_DAWG_SEPARATOR 11
#define WS_GRAPH_HALVES_DISAGREE 12

#endif
