"""Files written from table logs for other programs, one way for the director's
console and ``rackclock export``: each game as GCG (:mod:`clock.exports.game_records`)
and the results files, NASPA and tsh (:mod:`clock.exports.results_files`)."""
