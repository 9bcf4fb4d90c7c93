package main

func runPlay(e *env, args []string) int  { return 2 }
func runBench(e *env, args []string) int { return 2 }
