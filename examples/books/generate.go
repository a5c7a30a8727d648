package main

//go:generate go run ../../cmd/mcpgen generate
