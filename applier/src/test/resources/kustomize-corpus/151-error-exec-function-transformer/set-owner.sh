#!/bin/sh
cat
