/* The rated player in C: a softmax over the equity of every legal play and the best swap
 * (wordsalvo.engine.strength; Bot._choose_rated is the same choice in Python, and
 * calls ws_softmax_pick below for its draw, so the two make the same pick from the same
 * random number).
 *
 * On its turn the player lists every legal play (ws_gen_all, in the generator's order)
 * with its equity, the float sum score + leave value (wordsalvo.moves.LeaveValues.equities;
 * the score alone without a leave table), adds the best swap when the rules allow one
 * (the static equity player's swap with no play to weigh: ws_player_options), and draws
 * one with weights exp(beta * (equity - ref)) from one random.random() of its own stream:
 * ref is the best equity for beta >= 0, the worst for beta < 0, so every exponent is <= 0
 * and nothing overflows.  A play that forms a word of the offensive list is ruled out
 * (weight 0) and the draw is made again; with nothing left it passes (without a leave
 * table: the score player's move without a play, a whole-rack swap or a pass).
 *
 * beta = inf (expert's choice) is not this player: it is expert's, in Python.
 * No function allocates; errors are status codes (ws_defs.h).
 */
#ifndef WS_RATED_H
#define WS_RATED_H

#include "ws_action.h"
#include "ws_defs.h"
#include "ws_game.h"
#include "ws_leaves.h"
#include "ws_movegen.h"
#include "ws_rng.h"

/* The most bytes of one letter's text (UTF-8; a digraph such as Dutch IJ is one letter). */
#define WS_LETTER_BYTES 8

/* A word list (the offensive words of a language, wordsalvo.offensive) as the letters
 * of the board spell them: the words' UTF-8 bytes sorted bytewise (a shorter word before
 * the longer words it begins), end to end, and the text of every letter code. */
typedef struct WsWordList {
    const uint8_t *bytes;   /* the words, end to end */
    const uint32_t *start;  /* word i is bytes[start[i] .. start[i + 1]); count + 1 entries */
    int32_t count;          /* words (0: an empty list, nothing is listed) */
    uint8_t letter_len[WS_MAX_LETTERS + 1];             /* bytes of the text of each code (1..) */
    uint8_t letter[WS_MAX_LETTERS + 1][WS_LETTER_BYTES]; /* the text of each code */
} WsWordList;

/* Whether move m on board (WS_SQUARES codes, blank bit allowed) forms a word of list:
 * its main word (of 2+ squares) or the cross word (of 2+ letters) of any new tile
 * (wordsalvo.moves.Move.formed_words).  0 for an empty list or NULL. */
int ws_words_listed(const WsWordList *list, const uint8_t *board, const WsMove *m);

/* The index drawn from value[0..n) with weights exp(beta * (value - ref)), none of those
 * with excluded[i] != 0 (excluded may be NULL), for the uniform number u in [0, 1): the
 * first index whose running sum of weights exceeds u times their sum (a sum rounded to
 * the top: the last index of positive weight).  ref: the largest allowed value for
 * beta >= 0, the smallest for beta < 0; a weight that is not finite counts 0.
 * cum[0..n): scratch.  The caller checks that beta and the values are finite and that
 * some index is allowed.  Sums in index order: the same bits on every machine whose
 * exp() is the same. */
size_t ws_softmax_pick(const double *value, const uint8_t *excluded, size_t n, double beta, double u, double *cum);

/* The rated player. */
typedef struct WsRated {
    double beta;                 /* finite */
    const WsLeaves *leaves;      /* NULL: no table, equity is the score and no swap is weighed */
    const WsWordList *offensive; /* never played (NULL: none) */
} WsRated;

/* Its working memory, the caller's: room for capacity plays (the swap is one more). */
typedef struct WsRatedBuffer {
    WsMove *moves;      /* capacity */
    double *values;     /* capacity + 1 */
    double *cum;        /* capacity + 1 */
    uint8_t *excluded;  /* capacity + 1 */
    size_t capacity;
    size_t needed;      /* the most plays a turn had (> capacity after WS_E_CAPACITY) */
} WsRatedBuffer;

/* The choice of the rated player P for the player on turn of s (loads s into g), drawn
 * from rng; last_kind: the player's last turn kind (WS_TURN_*, -1 for none), read only
 * without a leave table when there is no play.  WS_E_CAPACITY: more plays than
 * buf->capacity (buf->needed says how many; nothing is drawn); WS_E_ARGUMENT: a rack the
 * leave table cannot value. */
int ws_rated_choose(const WsGame *s, WsGen *g, const WsRated *P, int last_kind, WsRng *rng, WsRatedBuffer *buf,
                    WsAction *a);

#endif
